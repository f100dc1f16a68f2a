// What a NO_DATA result means for the user: come back later (re-score), or nothing will
// change (fix the creative or the set-up). Codes are stored as they come; this table only
// explains the known ones, so a new code is shown as "unknown", never dropped.

export type NoDataKind = 'rescore-later' | 'final' | 'unknown';

interface NoDataMeaning {
  kind: NoDataKind;
  advice: string;
}

const rescoreLater = (advice: string): NoDataMeaning => ({ kind: 'rescore-later', advice });
const final = (advice: string): NoDataMeaning => ({ kind: 'final', advice });

const meanings: Record<string, NoDataMeaning> = {
  NO_DATA_NEW_CRITERIA: rescoreLater(
    'The guideline is newer than the score: re-score the asset (`creative-sync rescore`).',
  ),
  NO_DATA_MISSING_REQUIRED_TAGS: rescoreLater(
    'Tags the guideline needs were missing: re-score once tagging has run.',
  ),
  NO_DATA_ERROR_RETRIEVING_TAGS: rescoreLater('The service could not read the tags: re-score later.'),
  NO_DATA_MEDIA_NOT_TAGGED: rescoreLater('The asset was not tagged yet: re-score once tagging has run.'),
  NO_DATA_SCORING_BACKLOG: rescoreLater('The service had a backlog: re-score later.'),
  NO_DATA_MEDIA_DOWNLOAD_FAILURE: final(
    'The service could not download the file: check that the URL is a direct, public link, then submit a new version.',
  ),
  NO_DATA_MEDIA_RECOGNITION_FAIL: final(
    'The service could not recognise the content; re-scoring will not change it.',
  ),
  NO_DATA_MEDIA_PREDATES_MODEL: final(
    'The asset predates the model behind this guideline; re-scoring will not change it.',
  ),
  NO_DATA_MEDIA_PREDATES_TAG_API: final(
    'The asset predates the tagging service; re-scoring will not change it.',
  ),
  NO_DATA_NOT_APPLICABLE: final('The guideline does not apply to this asset.'),
  NO_DATA_MISSING_BRAND_IDENTIFIERS: final(
    'The workspace has no brand identifiers (logos, names) set up: ask an admin to add them, then re-score.',
  ),
  NO_DATA_AD_ACCOUNT_DISCONNECTED: final(
    'The ad account behind this channel is disconnected: reconnect it in the platform, then re-score.',
  ),
  NO_DATA_MEDIA_SCORED_OUTSIDE_BATCH: final(
    'The asset was scored outside a batch; re-scoring will not change it.',
  ),
  NO_DATA: rescoreLater('No data (legacy code): re-scoring may help.'),
};

/** True for NO_DATA and every NO_DATA_* code, known or not. */
export function isNoData(result: string): boolean {
  return result === 'NO_DATA' || result.startsWith('NO_DATA_');
}

export function noDataMeaning(code: string): NoDataMeaning {
  return (
    meanings[code] ?? {
      kind: 'unknown',
      advice: `${code} is a code this version does not know; keep it for support.`,
    }
  );
}

/** Codes that mean "ask again later", for `rescore --rescore-later`. */
export const rescoreLaterCodes = Object.entries(meanings)
  .filter(([, m]) => m.kind === 'rescore-later')
  .map(([code]) => code);
