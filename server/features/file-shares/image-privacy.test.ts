import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fileClient, type Auth } from '../../../tests/fixtures/files';
import { latitudeBytes, photoWithLocation } from '../../../tests/fixtures/photos';
import { expectError, expectOk, useTestApp } from '../../../tests/fixtures/test-app';
import { systemSettingsSchema } from '../../../contract/system';

describe('shared photos and their location (POST /api/upload)', () => {
  const t = useTestApp();
  const admin = (): Auth => ({ token: t.token });
  const GPS = latitudeBytes();

  /** The bytes a visitor downloads for the share made by uploading `photo` with `fields`. */
  async function sharedBytes(photo: Buffer, fields: Record<string, string> = {}, filename = 'holiday.jpg'): Promise<Buffer> {
    const files = fileClient(t);
    const share = await files.uploadOk(new Uint8Array(photo), admin(), { filename, fields });
    const download = await files.download(share.slug);
    expect(download.status).toBe(200);
    return Buffer.from(await download.arrayBuffer());
  }

  it('removes the position by default, keeping size, orientation and pixels', async () => {
    const photo = await photoWithLocation();
    const shared = await sharedBytes(photo);
    expect(shared.length).toBe(photo.length);
    expect(photo.includes(GPS)).toBe(true);
    expect(shared.includes(GPS)).toBe(false);
    expect((await sharp(shared).metadata()).orientation).toBe(6);
    expect(await sharp(shared).raw().toBuffer()).toEqual(await sharp(photo).raw().toBuffer());
  });

  it('keeps the photo as taken with strip_metadata=none, and removes the camera too with all', async () => {
    const photo = await photoWithLocation('webp');
    expect((await sharedBytes(photo, { strip_metadata: 'none' }, 'a.webp')).equals(photo)).toBe(true);
    const bare = await sharedBytes(photo, { strip_metadata: 'all' }, 'b.webp');
    expect(bare.includes(GPS)).toBe(false);
    expect(bare.includes(Buffer.from('PhoneMaker'))).toBe(false);
  });

  it('follows the system setting when the upload does not say, and refuses an unknown choice', async () => {
    const photo = await photoWithLocation();
    const settings = await expectOk(await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { strip_image_location: false } }), systemSettingsSchema);
    expect(settings.strip_image_location).toBe(false);
    try {
      expect((await sharedBytes(photo)).equals(photo)).toBe(true);
      expect((await sharedBytes(photo, { strip_metadata: 'location' })).includes(GPS)).toBe(false);
    } finally {
      await t.request('/api/admin/system-settings', { token: t.token, method: 'PUT', json: { strip_image_location: true } });
    }
    const answer = await t.request('/api/system/upload-defaults');
    expect(((await answer.json()) as { data: unknown }).data).toEqual({ strip_image_location: true });
    const refused = await expectError(await fileClient(t).upload(new Uint8Array(photo), admin(), { filename: 'c.jpg', fields: { strip_metadata: 'most' } }), 400);
    expect(refused.data).toMatchObject({ field: 'strip_metadata' });
  });

  it('leaves files that are not photos as they are', async () => {
    const text = Buffer.from('GPS 48/51 is just text here');
    expect((await sharedBytes(text, {}, 'notes.txt')).equals(text)).toBe(true);
  });
});
