import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { PublicFileRequest } from '../contract/file-requests';
import { fileRequestMachine, type GrantInput, type LoadedRequest } from './file-request.machine';

const request = (changes: Partial<PublicFileRequest> = {}): PublicFileRequest => ({
  slug: 'inbox',
  title: 'Send me',
  message: '',
  state: 'open',
  has_password: false,
  expires_at: null,
  max_files: null,
  max_file_size: null,
  max_total_size: null,
  allowed_types: [],
  show_uploads: false,
  files_received: 0,
  bytes_received: 0,
  ...changes,
});

const refusal = (status: number, message: string) => Object.assign(new Error(message), { reason: status === 401 ? 'unauthorized' : 'gone', status, message });

/** The machine with fake server calls: `answers` are the requests loadRequest answers, one per call (the last repeats). */
function start(answers: PublicFileRequest[], grant: (input: GrantInput) => Promise<string> = async () => 'g1', stored?: string) {
  const started: File[][] = [];
  const grants: GrantInput[] = [];
  let loads = 0;
  const logic = fileRequestMachine.provide({
    actors: {
      loadRequest: fromPromise<LoadedRequest, { slug: string; grant?: string }>(async () => ({ request: answers[Math.min(loads++, answers.length - 1)] ?? request(), sent: [] })),
      requestGrant: fromPromise<string, GrantInput>(({ input }) => {
        grants.push(input);
        return grant(input);
      }),
    },
    actions: {
      startUploads: (_, { files }) => void started.push(files),
    },
  });
  const actor = createActor(logic, { input: { slug: 'inbox', ...(stored && { grant: stored }) } }).start();
  return { actor, started, grants };
}

const file = (name: string) => new File(['x'], name);

describe('the sender page of a file request', () => {
  it('asks for a grant with the first files only, with the sender’s name, then sends later files at once', async () => {
    const { actor, started, grants } = start([request()]);
    await waitFor(actor, (state) => state.hasTag('ready'));
    expect(grants).toEqual([]);
    actor.send({ type: 'files.send', files: [file('a.txt')], senderName: ' Ada ' });
    await waitFor(actor, (state) => state.matches({ ready: 'idle' }) && started.length === 1);
    expect(grants).toEqual([{ slug: 'inbox', senderName: 'Ada' }]);
    expect(actor.getSnapshot().context.grant).toBe('g1');
    actor.send({ type: 'files.send', files: [file('b.txt')], senderName: '' });
    expect(started.map((files) => files.map((f) => f.name))).toEqual([['a.txt'], ['b.txt']]);
    expect(grants).toHaveLength(1);
  });

  it('says a closed, expired or full request is so before anyone uploads', async () => {
    for (const state of ['closed', 'expired', 'full'] as const) {
      const { actor } = start([request({ state })]);
      await waitFor(actor, (snapshot) => snapshot.hasTag('unavailable'));
      actor.send({ type: 'files.send', files: [file('a.txt')], senderName: '' });
      expect(actor.getSnapshot().hasTag('unavailable')).toBe(true);
    }
  });

  it('locks a request with a password until the password is right, then takes files without asking again', async () => {
    const { actor, started, grants } = start([request({ has_password: true })], async (input) => {
      if (input.password !== 'right') throw refusal(401, 'Wrong password');
      return 'g2';
    });
    await waitFor(actor, (state) => state.hasTag('locked'));
    actor.send({ type: 'password.submit', password: 'wrong', senderName: '' });
    await waitFor(actor, (state) => state.matches('locked') && state.context.grantFailure !== undefined);
    expect(actor.getSnapshot().context.grantFailure?.message).toBe('Wrong password');
    actor.send({ type: 'password.submit', password: 'right', senderName: 'Bo' });
    await waitFor(actor, (state) => state.hasTag('ready'));
    actor.send({ type: 'files.send', files: [file('a.txt')], senderName: 'Bo' });
    expect(started).toHaveLength(1);
    expect(grants).toHaveLength(2);
  });

  it('opens at once with the grant this browser kept', async () => {
    const { actor } = start([request({ has_password: true })], undefined, 'kept');
    await waitFor(actor, (state) => state.hasTag('ready'));
  });

  it('loads the request again when it closed while the page was open', async () => {
    const { actor, started } = start([request(), request({ state: 'closed' })], async () => {
      throw refusal(410, 'This file request is closed');
    });
    await waitFor(actor, (state) => state.hasTag('ready'));
    actor.send({ type: 'files.send', files: [file('a.txt')], senderName: '' });
    await waitFor(actor, (state) => state.hasTag('unavailable'));
    expect(started).toEqual([]);
  });

  it('refreshes the counts after an upload and says when the request is full', async () => {
    const { actor } = start([request(), request({ state: 'full', files_received: 1 })], undefined, 'kept');
    await waitFor(actor, (state) => state.hasTag('ready'));
    actor.send({ type: 'upload.done' });
    await waitFor(actor, (state) => state.hasTag('unavailable'));
    expect(actor.getSnapshot().context.loaded?.request.files_received).toBe(1);
  });
});
