import { describe, expect, it } from 'vitest';
import { emptyUploadForm, shareOptionsFor } from './upload-options';

describe('shareOptionsFor', () => {
  it('keeps a custom slug for a single file only', () => {
    const values = { ...emptyUploadForm, slug: ' report ', maxViews: '3', expiresIn: 24 as const };
    expect(shareOptionsFor(values, 1)).toEqual({ slug: 'report', expires_in: 24, max_views: 3 });
    expect(shareOptionsFor(values, 2)).toEqual({ expires_in: 24, max_views: 3 });
  });
  it('sends password and remark only when given', () => {
    expect(shareOptionsFor({ ...emptyUploadForm, password: 'pw', remark: ' note ' }, 1)).toEqual({
      password: 'pw',
      remark: 'note',
      expires_in: 0,
      max_views: 0,
    });
  });
});
