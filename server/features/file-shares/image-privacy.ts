import { Transform, type Readable } from 'node:stream';
import { METADATA_HEAD_BYTES, stripImageMetadata, type MetadataStrip } from '../../../contract/image-metadata';
import { badInput } from '../../errors';

const CHOICES = ['none', 'location', 'all'] as const;

/**
 * What a form upload strips from a shared photo: its `strip_metadata` field (`none`, `location`, `all`), sent
 * before the file, else the system setting "remove location from shared images".
 */
export function metadataStripOf(field: string | undefined, stripLocationSetting: boolean): MetadataStrip | undefined {
  if (field === undefined || field === '') return stripLocationSetting ? 'location' : undefined;
  if (!(CHOICES as readonly string[]).includes(field)) throw badInput('strip_metadata', 'invalid_choice');
  return field === 'none' ? undefined : (field as MetadataStrip);
}

/**
 * `body` with `strip` removed from its metadata: the head (METADATA_HEAD_BYTES) is held, stripped in place and
 * passed on, the rest streams through. The length never changes.
 */
export function withoutMetadata(body: Readable, strip: MetadataStrip): Readable {
  const head: Buffer[] = [];
  let held = 0;
  let passing = false;
  const release = (stream: Transform) => {
    const bytes = Buffer.concat(head);
    stripImageMetadata(bytes, strip);
    passing = true;
    stream.push(bytes);
  };
  const stripped = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      if (passing) return done(null, chunk);
      head.push(chunk);
      held += chunk.length;
      if (held >= METADATA_HEAD_BYTES) release(this);
      done();
    },
    flush(done) {
      if (!passing) release(this);
      done();
    },
  });
  body.on('error', (error) => stripped.destroy(error));
  return body.pipe(stripped);
}
