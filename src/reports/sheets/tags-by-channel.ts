// Tags by Channel: the most widespread tags within each channel the manifest asked for.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeGroupTags } from './group-tags';

export const tagsByChannelSheet: SheetBuilder = {
  name: 'Tags by Channel',
  build: (ctx) =>
    writeGroupTags(ctx, {
      name: 'Tags by Channel',
      by: 'channel',
      groupHeader: 'Channel',
      title: 'Tags found by tagging, by channel',
      groupNote:
        'Channels are those the manifest asked for; an asset with two channels counts in both; ' +
        `${NONE_LABEL} is the assets with none.`,
    }),
};
