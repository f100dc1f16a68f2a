// By Brand: one row per brand; an asset with two brands counts in both.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeGroupRollup } from './group-rollup';

export const byBrandSheet: SheetBuilder = {
  name: 'By Brand',
  build: (ctx) =>
    writeGroupRollup(
      ctx,
      {
        name: 'By Brand',
        groupHeader: 'Brand',
        title: 'Creative scores by brand',
        noteParts: [
          "Means and medians are over every (asset, channel) score of the brand's assets;",
          'Pass…Not available are guideline results summed over those scores.',
          `An asset with two brands counts in both; ${NONE_LABEL} is the assets with no brand.`,
        ],
      },
      ctx.rollups.brand(),
    ),
};
