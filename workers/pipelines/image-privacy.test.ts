import { describe, expect, it } from 'vitest';
import { latitudeBytes, photoWithLocation } from '../../tests/fixtures/photos';
import { sharedCopyOf } from './image-privacy';

const bytesOf = async (file: Blob) => Buffer.from(await file.arrayBuffer());

describe('sharedCopyOf', () => {
  it('answers a copy of a photo without its position, of the same size, name and date', async () => {
    const photo = new File([new Uint8Array(await photoWithLocation())], 'IMG_0001.JPG', { type: 'image/jpeg', lastModified: 1_700_000_000_000 });
    const shared = await sharedCopyOf(photo, 'location');
    expect(shared).not.toBe(photo);
    expect([shared.name, shared.size, shared.lastModified, shared.type]).toEqual([photo.name, photo.size, photo.lastModified, photo.type]);
    expect((await bytesOf(photo)).includes(latitudeBytes())).toBe(true);
    expect((await bytesOf(shared)).includes(latitudeBytes())).toBe(false);
  });

  it('answers the file itself when nothing is to be removed or nothing is asked', async () => {
    const photo = new File([new Uint8Array(await photoWithLocation())], 'a.jpg', { type: 'image/jpeg' });
    const text = new File(['GPS notes'], 'notes.txt', { type: 'text/plain' });
    expect(await sharedCopyOf(photo, undefined)).toBe(photo);
    expect(await sharedCopyOf(text, 'all')).toBe(text);
    const plain = new File([new Uint8Array(8)], 'b.jpg', { type: 'image/jpeg' });
    expect(await sharedCopyOf(plain, 'location')).toBe(plain);
  });
});
