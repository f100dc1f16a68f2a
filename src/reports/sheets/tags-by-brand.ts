// Tags by Brand: the most widespread tags within each brand.
import { NONE_LABEL, type SheetBuilder } from '../layout';
import { writeGroupTags } from './group-tags';

export const tagsByBrandSheet: SheetBuilder = {
  name: 'Tags by Brand',
  build: (ctx) =>
    writeGroupTags(ctx, {
      name: 'Tags by Brand',
      by: 'brand',
      groupHeader: 'Brand',
      title: 'Tags found by tagging, by brand',
      groupNote: `An asset with two brands counts in both; ${NONE_LABEL} is the assets with no brand.`,
    }),
};
