import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { latitudeBytes, photoWithLocation } from '../tests/fixtures/photos';
import { stripImageMetadata } from './image-metadata';

const GPS_BYTES = latitudeBytes();
const XMP_WITH_GPS =
  '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">' +
  '<rdf:Description xmlns:exif="http://ns.adobe.com/exif/1.0/" exif:GPSLatitude="48,51.4N"/></rdf:RDF></x:xmpmeta>';

const photo = photoWithLocation;

const pixels = (bytes: Buffer) => sharp(bytes).raw().toBuffer();

describe('stripImageMetadata', () => {
  it.each(['jpeg', 'webp'] as const)('removes the position from a %s, keeping its length, pixels, orientation and camera', async (format) => {
    const original = await photo(format);
    expect(original.includes(GPS_BYTES)).toBe(true);
    const stripped = Buffer.from(original);
    expect(stripImageMetadata(stripped, 'location')).toBe(true);
    expect(stripped.length).toBe(original.length);
    expect(stripped.includes(GPS_BYTES)).toBe(false);
    expect((await sharp(stripped).metadata()).orientation).toBe(6);
    expect(stripped.includes(Buffer.from('PhoneMaker'))).toBe(true);
    expect(await pixels(stripped)).toEqual(await pixels(original));
  });

  it.each(['jpeg', 'webp'] as const)('removes every metadata of a %s but its orientation', async (format) => {
    const original = await photo(format, XMP_WITH_GPS);
    const stripped = Buffer.from(original);
    expect(stripImageMetadata(stripped, 'all')).toBe(true);
    for (const kept of [GPS_BYTES, Buffer.from('PhoneMaker'), Buffer.from('Model-X1'), Buffer.from('GPSLatitude')]) {
      expect(stripped.includes(kept)).toBe(false);
    }
    expect((await sharp(stripped).metadata()).orientation).toBe(6);
    expect(await pixels(stripped)).toEqual(await pixels(original));
  });

  it.each(['location', 'all'] as const)('removes %s from a HEIF photo (AVIF here, laid out as HEIC is)', async (strip) => {
    const original = await photo('avif', XMP_WITH_GPS);
    const stripped = Buffer.from(original);
    expect(original.includes(GPS_BYTES)).toBe(true);
    expect(stripImageMetadata(stripped, strip)).toBe(true);
    expect(stripped.length).toBe(original.length);
    expect(stripped.includes(GPS_BYTES)).toBe(false);
    expect(stripped.includes(Buffer.from('exif:GPSLatitude'))).toBe(false);
    expect(stripped.includes(Buffer.from('PhoneMaker'))).toBe(strip === 'location');
    expect(await pixels(stripped)).toEqual(await pixels(original));
  });

  it('blanks XMP that names a position, and leaves XMP that does not', async () => {
    const withGps = Buffer.from(await photo('jpeg', XMP_WITH_GPS));
    stripImageMetadata(withGps, 'location');
    expect(withGps.includes(Buffer.from('exif:GPSLatitude'))).toBe(false);
    const plain = '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"/></x:xmpmeta>';
    const withoutGps = Buffer.from(await photo('jpeg', plain));
    stripImageMetadata(withoutGps, 'location');
    expect(withoutGps.includes(Buffer.from('adobe:ns:meta'))).toBe(true);
  });

  it('blanks an EXIF block it cannot read, and the image still decodes', async () => {
    const bytes = Buffer.from(await photo('jpeg'));
    const tiff = bytes.indexOf(Buffer.from('Exif\0\0')) + 6;
    bytes.write('XX', tiff, 'latin1'); // not a byte order
    expect(stripImageMetadata(bytes, 'location')).toBe(true);
    expect(bytes.includes(GPS_BYTES)).toBe(false);
    expect((await sharp(bytes).metadata()).width).toBe(40);
  });

  it('leaves other files and photos without a position as they are', async () => {
    const png = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).png().toBuffer();
    const plainJpeg = await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } }).jpeg().withMetadata({ orientation: 3 }).toBuffer();
    for (const original of [png, plainJpeg, Buffer.from('just text, not an image')]) {
      const copy = Buffer.from(original);
      expect(stripImageMetadata(copy, 'location')).toBe(false);
      expect(copy).toEqual(original);
    }
  });

  it('stops at a head cut in the middle of a segment or box without reading past it', async () => {
    for (const format of ['jpeg', 'webp', 'avif'] as const) {
      const original = await photo(format);
      for (const cut of [20, 60, 200, 400]) expect(() => stripImageMetadata(Buffer.from(original.subarray(0, cut)), 'location')).not.toThrow();
    }
  });
});
