import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ApiKeyTestResponse } from '../contract/auth';
import type { RequestFailure } from '../contract/envelope';
import { authMachine, type StoredCredentials } from './auth.machine';

const failure = (status: number, reason: RequestFailure['reason'], message = 'nope'): RequestFailure => ({
  status,
  reason,
  message,
});

const keyInfo: ApiKeyTestResponse = {
  name: 'ci',
  basic_path: '/docs',
  permissions: { text: true, file: false, mount: false, expense: false },
  key_info: { id: 'k1', name: 'ci', basic_path: '/docs', expires_at: null },
};

interface Fakes {
  /** The server has forgotten the pending login by the time a passkey answers. */
  passkeyGone?: boolean;
  validToken?: string;
  validKey?: string;
  offline?: boolean;
}

function start(stored: StoredCredentials, fakes: Fakes = {}) {
  const persisted: StoredCredentials[] = [];
  const revoked: string[] = [];
  const machine = authMachine.provide({
    actions: {
      persist: (_, credentials) => persisted.push(credentials),
      revokeSession: (_, { token }) => revoked.push(token),
    },
    actors: {
      login: fromPromise(async ({ input }) => {
        if (input.password === 'second-factor-password') {
          return { username: input.username, secondStep: { pendingToken: 'P1', expiresAt: '2030-01-01T00:05:00.000Z', methods: ['totp', 'passkey', 'recovery'] } };
        }
        if (input.password !== 'right-password') throw failure(401, 'unauthorized', 'Wrong username or password');
        return { username: input.username, token: 'T1', expiresAt: '2030-01-01T00:00:00.000Z' };
      }),
      secondStepCode: fromPromise(async ({ input }) => {
        if (input.pendingToken !== 'P1') throw { ...failure(401, 'unauthorized', 'Log in again'), data: { field: 'pendingToken' } };
        if (input.code !== '123456') throw { ...failure(401, 'unauthorized', 'Wrong or already used code'), data: { field: 'code' } };
        return { username: 'admin', token: 'T2', expiresAt: '2030-01-01T00:00:00.000Z' };
      }),
      secondStepPasskey: fromPromise(async ({ input }) => {
        if (fakes.passkeyGone) throw { ...failure(401, 'unauthorized', 'Log in again'), data: { field: 'pendingToken' } };
        return { username: 'admin', token: `T-passkey-${input.pendingToken}`, expiresAt: '2030-01-01T00:00:00.000Z' };
      }),
      validateAdminToken: fromPromise(async ({ input }) => {
        if (fakes.offline) throw failure(0, 'network');
        if (input.token !== fakes.validToken) throw failure(401, 'token_expired');
        return { username: 'admin' };
      }),
      testApiKey: fromPromise(async ({ input }) => {
        if (fakes.offline) throw failure(0, 'network');
        if (input.apiKey !== fakes.validKey) throw failure(401, 'api_key_invalid', 'API key invalid or expired');
        return keyInfo;
      }),
    },
  });
  const actor = createActor(machine, { input: stored }).start();
  return { actor, persisted, revoked };
}

const settled = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => !s.hasTag('busy'));

describe('auth machine', () => {
  it('starts anonymous without stored credentials', () => {
    const { actor } = start({});
    expect(actor.getSnapshot().matches('anonymous')).toBe(true);
    expect(actor.getSnapshot().hasTag('signedIn')).toBe(false);
  });

  it('logs an admin in, persists the token, and logs out revoking it', async () => {
    const { actor, persisted, revoked } = start({});
    actor.send({ type: 'auth.login.admin', username: 'admin', password: 'right-password' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const snapshot = await settled(actor);
    expect(snapshot.matches('admin')).toBe(true);
    expect(snapshot.context.username).toBe('admin');
    expect(persisted.at(-1)).toEqual({ adminToken: 'T1' });
    actor.send({ type: 'auth.logout' });
    expect(actor.getSnapshot().matches('anonymous')).toBe(true);
    expect(revoked).toEqual(['T1']);
    expect(persisted.at(-1)).toEqual({});
    expect(actor.getSnapshot().context.prompt).toBeUndefined();
  });

  it('keeps the server message of a failed login and stays anonymous', async () => {
    const { actor } = start({});
    actor.send({ type: 'auth.login.admin', username: 'admin', password: 'wrong' });
    const snapshot = await settled(actor);
    expect(snapshot.matches({ anonymous: 'idle' })).toBe(true);
    expect(snapshot.context.loginError?.message).toBe('Wrong username or password');
    actor.send({ type: 'auth.login.admin', username: 'admin', password: 'right-password' });
    expect(actor.getSnapshot().context.loginError).toBeUndefined();
  });

  it('logs a key in with its permissions and base path', async () => {
    const { actor, persisted } = start({}, { validKey: 'goodkey1' });
    actor.send({ type: 'auth.login.apiKey', apiKey: 'goodkey1' });
    const snapshot = await settled(actor);
    expect(snapshot.matches('apiKey')).toBe(true);
    expect(snapshot.context.permissions).toEqual(keyInfo.permissions);
    expect(persisted.at(-1)).toEqual({ apiKey: 'goodkey1', permissions: keyInfo.permissions, basicPath: '/docs' });
  });

  it('refuses an invalid key and forgets it', async () => {
    const { actor } = start({}, { validKey: 'goodkey1' });
    actor.send({ type: 'auth.login.apiKey', apiKey: 'badkey99' });
    const snapshot = await settled(actor);
    expect(snapshot.matches('anonymous')).toBe(true);
    expect(snapshot.context.apiKey).toBeUndefined();
    expect(snapshot.context.loginError?.reason).toBe('api_key_invalid');
  });

  it('checks a stored admin token on start and on the admin route guard', async () => {
    const { actor } = start({ adminToken: 'T1' }, { validToken: 'T1' });
    expect(actor.getSnapshot().matches({ admin: 'checking' })).toBe(true);
    expect((await settled(actor)).matches({ admin: 'ready' })).toBe(true);
    actor.send({ type: 'auth.guard' });
    expect(actor.getSnapshot().matches({ admin: 'checking' })).toBe(true);
    expect((await settled(actor)).context.username).toBe('admin');
  });

  it('drops an expired stored token and opens the login prompt', async () => {
    const { actor, persisted } = start({ adminToken: 'OLD' }, { validToken: 'T1' });
    const snapshot = await settled(actor);
    expect(snapshot.matches('anonymous')).toBe(true);
    expect(snapshot.context.prompt).toBe('token_expired');
    expect(snapshot.context.adminToken).toBeUndefined();
    expect(persisted.at(-1)).toEqual({});
    actor.send({ type: 'auth.prompt.close' });
    expect(actor.getSnapshot().context.prompt).toBeUndefined();
  });

  it('keeps the session when the check cannot reach the server', async () => {
    const { actor } = start({ adminToken: 'T1' }, { offline: true });
    expect((await settled(actor)).matches({ admin: 'ready' })).toBe(true);
  });

  it('reacts to the client events: token expired and key invalid', async () => {
    const admin = start({ adminToken: 'T1' }, { validToken: 'T1' });
    await settled(admin.actor);
    admin.actor.send({ type: 'auth.adminTokenExpired' });
    expect(admin.actor.getSnapshot().context.prompt).toBe('token_expired');
    expect(admin.actor.getSnapshot().matches('anonymous')).toBe(true);

    const key = start({ apiKey: 'goodkey1' }, { validKey: 'goodkey1' });
    await settled(key.actor);
    key.actor.send({ type: 'auth.apiKeyInvalid' });
    const snapshot = key.actor.getSnapshot();
    expect(snapshot.context.prompt).toBe('api_key_invalid');
    expect(snapshot.context.apiKey).toBeUndefined();
    expect(key.persisted.at(-1)).toEqual({});
  });

  it('a login from the prompt closes it', async () => {
    const { actor } = start({ adminToken: 'OLD' }, { validToken: 'T1' });
    await settled(actor);
    actor.send({ type: 'auth.login.admin', username: 'admin', password: 'right-password' });
    const snapshot = await settled(actor);
    expect(snapshot.matches('admin')).toBe(true);
    expect(snapshot.context.prompt).toBeUndefined();
  });

  it('logs out without a prompt when the credentials were changed', async () => {
    const { actor } = start({ adminToken: 'T1' }, { validToken: 'T1' });
    await settled(actor);
    actor.send({ type: 'auth.credentialsChanged' });
    expect(actor.getSnapshot().matches('anonymous')).toBe(true);
    expect(actor.getSnapshot().context.prompt).toBeUndefined();
  });

  describe('second step of an admin login', () => {
    const toSecondStep = async (fakes: Fakes = {}) => {
      const started = start({}, fakes);
      started.actor.send({ type: 'auth.login.admin', username: 'admin', password: 'second-factor-password' });
      const snapshot = await settled(started.actor);
      expect(snapshot.matches({ anonymous: 'secondStep' })).toBe(true);
      return started;
    };

    it('asks for it after the password, with no session until a code is right', async () => {
      const { actor, persisted } = await toSecondStep();
      expect(actor.getSnapshot().hasTag('secondStep')).toBe(true);
      expect(actor.getSnapshot().hasTag('signedIn')).toBe(false);
      expect(actor.getSnapshot().context.secondStep?.methods).toEqual(['totp', 'passkey', 'recovery']);
      expect(persisted.some((credentials) => credentials.adminToken)).toBe(false);

      actor.send({ type: 'auth.secondStep.code', code: '000000' });
      let snapshot = await settled(actor);
      expect(snapshot.matches({ anonymous: { secondStep: 'waiting' } })).toBe(true);
      expect(snapshot.context.loginError?.message).toBe('Wrong or already used code');

      actor.send({ type: 'auth.secondStep.code', code: '123456' });
      snapshot = await settled(actor);
      expect(snapshot.matches('admin')).toBe(true);
      expect(snapshot.context.secondStep).toBeUndefined();
      expect(snapshot.context.loginError).toBeUndefined();
      expect(persisted.at(-1)).toEqual({ adminToken: 'T2' });
    });

    it('signs in with a passkey', async () => {
      const { actor } = await toSecondStep();
      actor.send({ type: 'auth.secondStep.passkey' });
      expect(actor.getSnapshot().hasTag('busy')).toBe(true);
      const snapshot = await settled(actor);
      expect(snapshot.matches('admin')).toBe(true);
      expect(snapshot.context.adminToken).toBe('T-passkey-P1');
    });

    it('goes back to the password when the server forgot the pending login, or when cancelled', async () => {
      const gone = await toSecondStep({ passkeyGone: true });
      gone.actor.send({ type: 'auth.secondStep.passkey' });
      const snapshot = await settled(gone.actor);
      expect(snapshot.matches({ anonymous: 'idle' })).toBe(true);
      expect(snapshot.context.loginError?.message).toBe('Log in again');
      expect(snapshot.context.secondStep).toBeUndefined();

      const cancelled = await toSecondStep();
      cancelled.actor.send({ type: 'auth.secondStep.cancel' });
      expect(cancelled.actor.getSnapshot().matches({ anonymous: 'idle' })).toBe(true);
      expect(cancelled.actor.getSnapshot().context.secondStep).toBeUndefined();
    });
  });
});
