import { describe, expect, it } from 'vitest';
import { isNoData, noDataMeaning, rescoreLaterCodes } from '../../src/sync/no-data';

describe('NO_DATA codes', () => {
  it('treats the legacy code and every NO_DATA_* code as not available, known or not', () => {
    expect(['NO_DATA', 'NO_DATA_SCORING_BACKLOG', 'NO_DATA_SOMETHING_NEW'].every(isNoData)).toBe(true);
    expect(['PASS', 'FAIL', 'NOT_APPLICABLE'].some(isNoData)).toBe(false);
  });

  it('says which codes are worth a re-score and which are final, as the live notes list them', () => {
    for (const code of [
      'NEW_CRITERIA',
      'MISSING_REQUIRED_TAGS',
      'ERROR_RETRIEVING_TAGS',
      'MEDIA_NOT_TAGGED',
      'SCORING_BACKLOG',
    ]) {
      expect(noDataMeaning(`NO_DATA_${code}`).kind).toBe('rescore-later');
      expect(rescoreLaterCodes).toContain(`NO_DATA_${code}`);
    }
    for (const code of ['MEDIA_DOWNLOAD_FAILURE', 'MEDIA_RECOGNITION_FAIL', 'MEDIA_PREDATES_MODEL']) {
      expect(noDataMeaning(`NO_DATA_${code}`).kind).toBe('final');
    }
  });

  it('keeps an unknown code as unknown, with advice to keep it for support', () => {
    expect(noDataMeaning('NO_DATA_FROM_THE_FUTURE')).toEqual({
      kind: 'unknown',
      advice: 'NO_DATA_FROM_THE_FUTURE is a code this version does not know; keep it for support.',
    });
  });
});
