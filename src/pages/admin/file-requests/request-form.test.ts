import { describe, expect, it } from 'vitest';
import { NEW_REQUEST_FORM, newRequestBody, requestFormValuesOf, requestSettings, validateRequestForm } from './request-form';

describe('the file request form', () => {
  it('turns MiB, counts and comma-separated types into the API’s limits; empty fields are no limit', () => {
    const values = { ...NEW_REQUEST_FORM, title: ' Photos ', folder: '/local/inbox/', maxFiles: '3', maxFileMb: '1.5', types: '.PDF, image/*' };
    expect(validateRequestForm(values, true)).toEqual({});
    expect(newRequestBody(values)).toEqual({
      title: 'Photos',
      message: '',
      expires_at: null,
      max_files: 3,
      max_file_size: 1_572_864,
      max_total_size: null,
      allowed_types: ['.pdf', 'image/*'],
      show_uploads: false,
      target: { kind: 'folder', path: '/local/inbox/' },
    });
  });

  it('refuses a missing title or folder, counts below one and types it cannot read', () => {
    expect(validateRequestForm({ ...NEW_REQUEST_FORM, maxFiles: '0', maxTotalMb: 'lots', types: 'pdf' }, true)).toEqual({
      title: 'required',
      folder: 'required',
      maxFiles: 'invalid',
      maxTotalMb: 'invalid',
      types: 'invalid',
    });
    expect(validateRequestForm({ ...NEW_REQUEST_FORM, title: 'x', targetKind: 'shares' }, true)).toEqual({});
  });

  it('edits a request as it is, sending a password only when one is typed', () => {
    const values = requestFormValuesOf({
      id: '1', slug: 's', title: 'T', message: 'M', target: { kind: 'shares' }, has_password: true, expires_at: null,
      max_files: null, max_file_size: 2 * 1024 * 1024, max_total_size: null, allowed_types: ['.pdf'], show_uploads: true,
      closed: false, state: 'open', files_received: 0, bytes_received: 0, created_by: 'admin', created_at: '', updated_at: '',
    });
    expect(values).toMatchObject({ maxFileMb: '2', types: '.pdf', showUploads: true, password: '' });
    expect(requestSettings(values)).not.toHaveProperty('password');
  });
});
