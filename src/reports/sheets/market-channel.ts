// Market x Channel: the mean score of each market on each channel.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeScoreMatrix } from './score-matrix';

export const marketChannelSheet: SheetBuilder = {
  name: 'Market x Channel',
  build: (ctx) =>
    writeScoreMatrix(
      ctx,
      {
        name: 'Market x Channel',
        groupHeader: 'Market',
        title: 'Mean score by market and channel',
        rollupSheet: 'By Market',
        groupNote: `An asset in two markets counts in both; ${NONE_LABEL} is the assets with no market.`,
      },
      ctx.rollups.marketMatrix(),
      ctx.rollups.market(),
    ),
};
