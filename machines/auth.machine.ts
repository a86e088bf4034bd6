import { assign, fromPromise, setup } from 'xstate';
import type { ApiKeyTestResponse, LoginResponse, Permissions } from '../contract/auth';
import { asRequestFailure, type RequestFailure } from '../contract/envelope';

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
}

export type AuthEvent =
  | { type: 'auth.login.admin'; username: string; password: string }
  | { type: 'auth.login.apiKey'; apiKey: string }
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
    login: fromPromise<LoginResponse, { username: string; password: string }>(async () => {
      throw new Error('login not provided');
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
            onDone: {
              target: '#auth.admin',
              actions: assign({
                adminToken: ({ event }) => event.output.token,
                username: ({ event }) => event.output.username,
                prompt: undefined,
              }),
            },
            onError: { target: 'idle', actions: assign({ loginError: ({ event }) => asRequestFailure(event.error) }) },
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
