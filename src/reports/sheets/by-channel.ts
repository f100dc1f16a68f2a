// By Channel: one row per channel, counting only that channel's scores.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeGroupRollup } from './group-rollup';

export const byChannelSheet: SheetBuilder = {
  name: 'By Channel',
  build: (ctx) =>
    writeGroupRollup(
      ctx,
      {
        name: 'By Channel',
        groupHeader: 'Channel',
        title: 'Creative scores by channel',
        noteParts: [
          "Means, medians and Pass…Not available are over the channel's scores only.",
          'Assets: those that asked for the channel or were scored on it;',
          `${NONE_LABEL} is the assets with neither.`,
        ],
      },
      ctx.rollups.channel(),
    ),
};
