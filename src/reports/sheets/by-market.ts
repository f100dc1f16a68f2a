// By Market: one row per market; an asset in two markets counts in both.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeGroupRollup } from './group-rollup';

export const byMarketSheet: SheetBuilder = {
  name: 'By Market',
  build: (ctx) =>
    writeGroupRollup(
      ctx,
      {
        name: 'By Market',
        groupHeader: 'Market',
        title: 'Creative scores by market',
        noteParts: [
          "Means and medians are over every (asset, channel) score of the market's assets;",
          'Pass…Not available are guideline results summed over those scores.',
          `An asset in two markets counts in both; ${NONE_LABEL} is the assets with no market.`,
        ],
      },
      ctx.rollups.market(),
    ),
};
