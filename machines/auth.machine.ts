import { assign, fromPromise, setup } from 'xstate';
import type { ApiKeyTestResponse, LoginResponse, Permissions } from '../contract/auth';
import { asRequestFailure, type RequestFailure } from '../contract/envelope';
import type { LoginAnswer, SecondStepRequired } from '../contract/two-factor';

/** What is kept in localStorage between visits. */
export interface StoredCredentials {
  adminToken?: string;
  apiKey?: string;
  permissions?: Permissions;
  basicPath?: string;
}

export type LoginPromptReason = 'token_expired' | 'api_key_invalid';

export interface AuthContext extends StoredCredentials {
  username?: string;
  keyName?: string;
  loginError?: RequestFailure;
  /** Set when the login prompt should open, with why. */
  prompt?: LoginPromptReason;
  /** The password was right and the admin has a second factor: what the second step needs. */
  secondStep?: SecondStepRequired['secondStep'];
}

export type AuthEvent =
  | { type: 'auth.login.admin'; username: string; password: string }
  | { type: 'auth.login.apiKey'; apiKey: string }
  /** The second step of an admin login: a TOTP or recovery code, or a passkey. */
  | { type: 'auth.secondStep.code'; code: string }
  | { type: 'auth.secondStep.passkey' }
  | { type: 'auth.secondStep.cancel' }
  | { type: 'auth.logout' }
  /** Entering an admin route: re-check a stored admin token; never blocks navigation. */
  | { type: 'auth.guard' }
  | { type: 'auth.adminTokenExpired' }
  | { type: 'auth.apiKeyInvalid' }
  | { type: 'auth.credentialsChanged' }
  | { type: 'auth.prompt.close' };

const persistKey = {
  type: 'persist',
  params: ({ context }: { context: AuthContext }) => ({
    apiKey: context.apiKey,
    permissions: context.permissions,
    basicPath: context.basicPath,
  }),
} as const;

const isUnauthorized = (error: unknown) => asRequestFailure(error).status === 401;
/** The server no longer knows the pending login (it expired, or was used): the password is asked again. */
const isPendingGone = (error: unknown) =>
  isUnauthorized(error) && (error as { data?: { field?: unknown } }).data?.field === 'pendingToken';

/**
 * Who the user is: anonymous, an admin (bearer token) or an API-key user. The network calls and the
 * storage writes are named actors and actions that the app provides; tests provide fakes.
 * Tags: `busy` while a login or a check runs, `signedIn` for admin and key users.
 */
export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    input: {} as StoredCredentials,
  },
  actors: {
    login: fromPromise<LoginAnswer, { username: string; password: string }>(async () => {
      throw new Error('login not provided');
    }),
    /** Exchanges the pending token and a TOTP or recovery code for a session. */
    secondStepCode: fromPromise<LoginResponse, { pendingToken: string; code: string }>(async () => {
      throw new Error('secondStepCode not provided');
    }),
    /** Asks the browser for a passkey assertion and exchanges it, with the pending token, for a session. */
    secondStepPasskey: fromPromise<LoginResponse, { pendingToken: string }>(async () => {
      throw new Error('secondStepPasskey not provided');
    }),
    testApiKey: fromPromise<ApiKeyTestResponse, { apiKey: string }>(async () => {
      throw new Error('testApiKey not provided');
    }),
    validateAdminToken: fromPromise<{ username: string }, { token: string }>(async () => {
      throw new Error('validateAdminToken not provided');
    }),
    logout: fromPromise<void, { token: string }>(async () => {}),
  },
  actions: {
    persist: (_, _credentials: StoredCredentials) => {},
    /** Tells the server to drop the token; fire and forget, the local logout does not wait. */
    revokeSession: (_, _params: { token: string }) => {},
    clearLoginError: assign({ loginError: undefined }),
    rememberLoginError: assign({ loginError: ({ event }) => asRequestFailure((event as { error?: unknown }).error) }),
    signInAdmin: assign((_, session: LoginResponse) => ({
      adminToken: session.token,
      username: session.username,
      prompt: undefined,
      secondStep: undefined,
    })),
    forgetCredentials: assign({
      adminToken: undefined,
      apiKey: undefined,
      permissions: undefined,
      basicPath: undefined,
      username: undefined,
      keyName: undefined,
    }),
    openPrompt: assign({ prompt: (_, reason: LoginPromptReason) => reason }),
    rememberKeyInfo: assign(({ event }) => {
      const info = (event as unknown as { output: ApiKeyTestResponse }).output;
      return { permissions: info.permissions, basicPath: info.basic_path, keyName: info.name };
    }),
  },
  guards: {
    hasAdminToken: ({ context }) => Boolean(context.adminToken),
    hasApiKey: ({ context }) => Boolean(context.apiKey),
    needsSecondStep: ({ event }) => 'secondStep' in (event as unknown as { output: LoginAnswer }).output,
    pendingGone: ({ event }) => isPendingGone((event as { error?: unknown }).error),
    unauthorized: ({ event }) => isUnauthorized((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'auth',
  context: ({ input }) => ({ ...input }),
  initial: 'restoring',
  on: {
    'auth.prompt.close': { actions: assign({ prompt: undefined }) },
  },
  states: {
    restoring: {
      always: [
        { guard: 'hasAdminToken', target: 'admin.checking' },
        { guard: 'hasApiKey', target: 'apiKey.checking' },
        { target: 'anonymous' },
      ],
    },

    anonymous: {
      entry: ['forgetCredentials', { type: 'persist', params: {} }],
      initial: 'idle',
      states: {
        idle: {
          on: {
            'auth.login.admin': 'loggingInAdmin',
            'auth.login.apiKey': 'loggingInApiKey',
          },
        },
        loggingInAdmin: {
          tags: ['busy'],
          entry: 'clearLoginError',
          invoke: {
            src: 'login',
            input: ({ event }) => {
              const { username, password } = event as Extract<AuthEvent, { type: 'auth.login.admin' }>;
              return { username, password };
            },
            onDone: [
              {
                guard: 'needsSecondStep',
                target: 'secondStep',
                actions: assign({ secondStep: ({ event }) => (event.output as SecondStepRequired).secondStep }),
              },
              { target: '#auth.admin', actions: { type: 'signInAdmin', params: ({ event }) => event.output as LoginResponse } },
            ],
            onError: { target: 'idle', actions: assign({ loginError: ({ event }) => asRequestFailure(event.error) }) },
          },
        },
        /** The password was right; a session needs a TOTP or recovery code, or a passkey. */
        secondStep: {
          tags: ['secondStep'],
          initial: 'waiting',
          exit: assign({ secondStep: undefined }),
          on: { 'auth.secondStep.cancel': { target: 'idle', actions: 'clearLoginError' } },
          states: {
            waiting: {
              on: {
                'auth.secondStep.code': 'checkingCode',
                'auth.secondStep.passkey': 'checkingPasskey',
              },
            },
            checkingCode: {
              tags: ['busy'],
              entry: 'clearLoginError',
              invoke: {
                src: 'secondStepCode',
                input: ({ context, event }) => ({
                  pendingToken: context.secondStep?.pendingToken ?? '',
                  code: (event as Extract<AuthEvent, { type: 'auth.secondStep.code' }>).code,
                }),
                onDone: { target: '#auth.admin', actions: { type: 'signInAdmin', params: ({ event }) => event.output } },
                onError: [
                  { guard: 'pendingGone', target: '#auth.anonymous.idle', actions: 'rememberLoginError' },
                  { target: 'waiting', actions: 'rememberLoginError' },
                ],
              },
            },
            checkingPasskey: {
              tags: ['busy'],
              entry: 'clearLoginError',
              invoke: {
                src: 'secondStepPasskey',
                input: ({ context }) => ({ pendingToken: context.secondStep?.pendingToken ?? '' }),
                onDone: { target: '#auth.admin', actions: { type: 'signInAdmin', params: ({ event }) => event.output } },
                onError: [
                  { guard: 'pendingGone', target: '#auth.anonymous.idle', actions: 'rememberLoginError' },
                  { target: 'waiting', actions: 'rememberLoginError' },
                ],
              },
            },
          },
        },
        loggingInApiKey: {
          tags: ['busy'],
          entry: [
            'clearLoginError',
            assign({ apiKey: ({ event }) => (event as Extract<AuthEvent, { type: 'auth.login.apiKey' }>).apiKey }),
          ],
          invoke: {
            src: 'testApiKey',
            input: ({ context }) => ({ apiKey: context.apiKey ?? '' }),
            onDone: { target: '#auth.apiKey', actions: ['rememberKeyInfo', assign({ prompt: undefined })] },
            onError: {
              target: 'idle',
              actions: assign({ apiKey: undefined, loginError: ({ event }) => asRequestFailure(event.error) }),
            },
          },
        },
      },
    },

    admin: {
      tags: ['signedIn'],
      entry: {
        type: 'persist',
        params: ({ context }) => ({ adminToken: context.adminToken }),
      },
      initial: 'ready',
      on: {
        'auth.adminTokenExpired': {
          target: 'anonymous',
          actions: { type: 'openPrompt', params: 'token_expired' },
        },
        'auth.credentialsChanged': 'anonymous',
        'auth.logout': {
          target: 'anonymous',
          actions: { type: 'revokeSession', params: ({ context }) => ({ token: context.adminToken ?? '' }) },
        },
      },
      states: {
        ready: { on: { 'auth.guard': 'checking' } },
        checking: {
          tags: ['busy'],
          invoke: {
            src: 'validateAdminToken',
            input: ({ context }) => ({ token: context.adminToken ?? '' }),
            onDone: { target: 'ready', actions: assign({ username: ({ event }) => event.output.username }) },
            onError: [
              {
                guard: 'unauthorized',
                target: '#auth.anonymous',
                actions: { type: 'openPrompt', params: 'token_expired' },
              },
              // Offline or a server fault: keep the session; the next call will tell.
              { target: 'ready' },
            ],
          },
        },
      },
    },

    apiKey: {
      tags: ['signedIn'],
      entry: persistKey,
      initial: 'ready',
      on: {
        'auth.apiKeyInvalid': {
          target: 'anonymous',
          actions: { type: 'openPrompt', params: 'api_key_invalid' },
        },
        'auth.logout': 'anonymous',
      },
      states: {
        ready: { on: { 'auth.guard': 'checking' } },
        checking: {
          tags: ['busy'],
          invoke: {
            src: 'testApiKey',
            input: ({ context }) => ({ apiKey: context.apiKey ?? '' }),
            onDone: { target: 'ready', actions: ['rememberKeyInfo', persistKey] },
            onError: [
              {
                guard: 'unauthorized',
                target: '#auth.anonymous',
                actions: { type: 'openPrompt', params: 'api_key_invalid' },
              },
              { target: 'ready' },
            ],
          },
        },
      },
    },
  },
});
