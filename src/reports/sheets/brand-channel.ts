// Brand x Channel: the mean score of each brand on each channel.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeScoreMatrix } from './score-matrix';

export const brandChannelSheet: SheetBuilder = {
  name: 'Brand x Channel',
  build: (ctx) =>
    writeScoreMatrix(
      ctx,
      {
        name: 'Brand x Channel',
        groupHeader: 'Brand',
        title: 'Mean score by brand and channel',
        rollupSheet: 'By Brand',
        groupNote: `An asset with two brands counts in both; ${NONE_LABEL} is the assets with no brand.`,
      },
      ctx.rollups.brandMatrix(),
      ctx.rollups.brand(),
    ),
};
