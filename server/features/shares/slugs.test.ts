import { beforeAll, describe, expect, it } from 'vitest';
import { RANDOM_SLUG_LENGTH } from '../../../contract/slugs';
import { useTestApp } from '../../../tests/fixtures/test-app';
import { ApiError } from '../../errors';
import {
  assertSlugFree,
  ATTEMPTS_PER_LENGTH,
  generateSlug,
  isSlugAvailable,
  isSlugTaken,
  writeWithSlug,
} from './slugs';

/** A random source that hands out the given slugs in order, then repeats the last one. */
function scripted(...slugs: string[]) {
  const asked: number[] = [];
  let index = 0;
  const random = (length: number) => {
    asked.push(length);
    return slugs[Math.min(index++, slugs.length - 1)]!;
  };
  return { random, asked };
}

describe('slugs service', () => {
  const t = useTestApp({ login: false });
  const stamp = '2030-01-15T12:00:00.000Z';
  const addPaste = (slug: string, id = `id-${slug}`) =>
    t.db
      .insertInto('pastes')
      .values({ id, slug, content: 'x', max_views: 0, created_by: 'admin', created_at: stamp, updated_at: stamp })
      .execute();

  beforeAll(async () => {
    await t.db
      .insertInto('storage_configs')
      .values({
        id: 'local',
        name: 'local',
        storage_type: 'LOCAL',
        provider_type: 'local',
        path_style: 0,
        default_folder: '',
        is_public: 1,
        // The fixture's built-in LOCAL config is the default; there is only ever one.
        is_default: 0,
        created_by: 'admin',
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await t.db
      .insertInto('files')
      .values({
        id: 'file-1',
        slug: 'file-slug',
        filename: 'a.txt',
        mimetype: 'text/plain',
        size: 1,
        storage_config_id: 'local',
        storage_path: 'a.txt',
        max_views: 0,
        status: 'committed',
        created_by: 'admin',
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await addPaste('paste-slug');
  });

  it('draws 6 base62 characters by default', async () => {
    const slugs = await Promise.all(Array.from({ length: 20 }, () => generateSlug(t.db, 'pastes')));
    for (const slug of slugs) expect(slug).toMatch(new RegExp(`^[A-Za-z0-9]{${RANDOM_SLUG_LENGTH}}$`));
  });

  it('draws again on a collision', async () => {
    await addPaste('Taken1');
    const { random, asked } = scripted('Taken1', 'Free01');
    expect(await generateSlug(t.db, 'pastes', random)).toBe('Free01');
    expect(asked).toEqual([6, 6]);
  });

  it('grows the length after a few collisions at one length', async () => {
    await addPaste('Taken2');
    const { random, asked } = scripted(...Array<string>(ATTEMPTS_PER_LENGTH).fill('Taken2'), 'Longer7');
    expect(await generateSlug(t.db, 'pastes', random)).toBe('Longer7');
    expect(asked).toEqual([...Array<number>(ATTEMPTS_PER_LENGTH).fill(6), 7]);
  });

  it('skips random text that happens to be a reserved word', async () => {
    const { random } = scripted('upload', 'public', 'Fine99');
    expect(await generateSlug(t.db, 'pastes', random)).toBe('Fine99');
  });

  it('keeps pastes and files in separate slug spaces', async () => {
    expect(await isSlugTaken(t.db, 'files', 'file-slug')).toBe(true);
    expect(await isSlugTaken(t.db, 'pastes', 'file-slug')).toBe(false);
    expect(await isSlugTaken(t.db, 'pastes', 'paste-slug')).toBe(true);
    expect(await isSlugTaken(t.db, 'files', 'paste-slug')).toBe(false);
    expect(await isSlugAvailable(t.db, 'pastes', 'file-slug')).toBe(true);
    await expect(assertSlugFree(t.db, 'pastes', 'file-slug')).resolves.toBeUndefined();
  });

  it('does not count the row being edited as a holder of its own slug', async () => {
    expect(await isSlugTaken(t.db, 'pastes', 'paste-slug', 'id-paste-slug')).toBe(false);
    expect(await isSlugTaken(t.db, 'pastes', 'paste-slug', 'someone-else')).toBe(true);
  });

  it('refuses an invalid custom slug with 400 slug and a taken one with 409', async () => {
    const invalid = await assertSlugFree(t.db, 'pastes', 'admin').catch((e: unknown) => e);
    expect(invalid).toBeInstanceOf(ApiError);
    expect(invalid).toMatchObject({ status: 400, data: { field: 'slug', issue: 'reserved' } });
    const taken = await assertSlugFree(t.db, 'pastes', 'paste-slug').catch((e: unknown) => e);
    expect(taken).toMatchObject({ status: 409, messageKey: 'slug_taken', data: { field: 'slug' } });
  });

  it('turns a lost insert race on a custom slug into 409 and draws a random slug again', async () => {
    // A new id: only the slug may collide (which constraint a database reports first is its own business).
    const insert = (slug: string) => addPaste(slug, `id-${slug}-again`).then(() => slug);
    // Another writer takes the slug between the check and the insert.
    const custom = await writeWithSlug(t.db, 'pastes', 'raced', async (slug) => {
      await addPaste(slug);
      return insert(slug);
    }).catch((e: unknown) => e);
    expect(custom).toMatchObject({ status: 409, messageKey: 'slug_taken' });

    let first = true;
    const { random } = scripted('Race01', 'Race02');
    const drawn = await writeWithSlug(
      t.db,
      'pastes',
      undefined,
      async (slug) => {
        if (first) {
          first = false;
          await addPaste(slug);
        }
        return insert(slug);
      },
      random,
    );
    expect(drawn).toBe('Race02');
  });

  it('passes other write errors through', async () => {
    const error = new Error('disk full');
    await expect(writeWithSlug(t.db, 'pastes', undefined, () => Promise.reject(error))).rejects.toBe(error);
  });
});
