import { assign, fromPromise, setup, type DoneActorEvent, type ErrorActorEvent } from 'xstate';
import { asRequestFailure, type RequestFailure } from '../contract/envelope';
import type { FileRequestUpload, PublicFileRequest } from '../contract/file-requests';

/** What the sender's page loads: the request, and what this sender (or everyone, where shown) sent. */
export interface LoadedRequest {
  request: PublicFileRequest;
  sent: FileRequestUpload[];
}

export interface FileRequestContext {
  slug: string;
  /** The grant this browser holds for the request (the grant actor keeps it); asked for with the first files or the password. */
  grant?: string;
  loaded?: LoadedRequest;
  /** Why the request could not be loaded. */
  failure?: RequestFailure;
  /** Why the password or the last grant was refused; cleared by the next try. */
  grantFailure?: RequestFailure;
  /** Files chosen while the grant is asked for: they start once it is given. */
  waiting: File[];
}

export type FileRequestEvent =
  | { type: 'request.reload' }
  | { type: 'password.submit'; password: string; senderName: string }
  /** Files the page already checked against the limits. */
  | { type: 'files.send'; files: File[]; senderName: string }
  /** One of this page's uploads finished: the counts and the list of sent files change. */
  | { type: 'upload.done' };

export interface GrantInput {
  slug: string;
  password?: string;
  senderName?: string;
}

const failureOf = ({ event }: { event: ErrorActorEvent }) => asRequestFailure(event.error);
const loadedOf = ({ event }: { event: DoneActorEvent<LoadedRequest> }) => event.output;
const isOpen = ({ event }: { event: DoneActorEvent<LoadedRequest> }) => event.output.request.state === 'open';
/** A request closed, expired or filled while the page was open refuses a grant with 410 or 409: load it again to say so. */
const requestChanged = ({ event }: { event: ErrorActorEvent }) => [409, 410].includes(asRequestFailure(event.error).status);

/**
 * The sender's page of a file request: loads it (without spending anything), says so when it is closed, expired or
 * full, asks for the password where there is one, and gets a grant (with the sender's name) before the first files
 * go; the uploads themselves are tasks of the task manager (`startUploads`, provided by the page). Tags: `busy`,
 * `error` (could not be loaded), `unavailable` (takes no files), `locked` (password), `ready` (takes files).
 */
export const fileRequestMachine = setup({
  types: {
    context: {} as FileRequestContext,
    events: {} as FileRequestEvent,
    input: {} as { slug: string; grant?: string },
  },
  actors: {
    loadRequest: fromPromise<LoadedRequest, { slug: string; grant?: string }>(() => Promise.reject(new Error('loadRequest not provided'))),
    requestGrant: fromPromise<string, GrantInput>(() => Promise.reject(new Error('requestGrant not provided'))),
  },
  actions: {
    /** Hands the files to the task manager with the grant (provided by the page). */
    startUploads: (_, _params: { slug: string; files: File[] }) => {},
  },
  guards: {
    hasGrant: ({ context }) => context.grant !== undefined,
  },
}).createMachine({
  id: 'fileRequest',
  context: ({ input }) => ({ slug: input.slug, ...(input.grant && { grant: input.grant }), waiting: [] }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        src: 'loadRequest',
        input: ({ context }) => ({ slug: context.slug, ...(context.grant && { grant: context.grant }) }),
        onDone: [
          { guard: ({ event }) => !isOpen({ event }), target: 'unavailable', actions: assign({ loaded: loadedOf, failure: undefined }) },
          { guard: ({ context, event }) => event.output.request.has_password && !context.grant, target: 'locked', actions: assign({ loaded: loadedOf, failure: undefined }) },
          { target: 'ready', actions: assign({ loaded: loadedOf, failure: undefined }) },
        ],
        onError: { target: 'failed', actions: assign({ failure: failureOf }) },
      },
    },
    failed: {
      tags: ['error'],
      on: { 'request.reload': 'loading' },
    },
    unavailable: {
      tags: ['unavailable'],
      on: { 'request.reload': 'loading' },
    },
    locked: {
      tags: ['locked'],
      on: { 'password.submit': 'unlocking' },
    },
    unlocking: {
      tags: ['locked', 'busy'],
      invoke: {
        src: 'requestGrant',
        input: ({ context, event }) => {
          const { password, senderName } = event as Extract<FileRequestEvent, { type: 'password.submit' }>;
          return { slug: context.slug, password, ...(senderName.trim() && { senderName: senderName.trim() }) };
        },
        onDone: {
          target: 'loading',
          actions: assign({ grant: ({ event }) => event.output, grantFailure: undefined }),
        },
        onError: [
          { guard: requestChanged, target: 'loading' },
          { target: 'locked', actions: assign({ grantFailure: failureOf }) },
        ],
      },
    },
    ready: {
      tags: ['ready'],
      initial: 'idle',
      states: {
        idle: {
          on: {
            'files.send': [
              {
                guard: 'hasGrant',
                actions: { type: 'startUploads', params: ({ context, event }) => ({ slug: context.slug, files: event.files }) },
              },
              { target: 'granting', actions: assign({ waiting: ({ event }) => event.files, grantFailure: undefined }) },
            ],
            'upload.done': 'refreshing',
          },
        },
        granting: {
          tags: ['busy'],
          invoke: {
            src: 'requestGrant',
            input: ({ context, event }) => {
              const { senderName } = event as Extract<FileRequestEvent, { type: 'files.send' }>;
              return { slug: context.slug, ...(senderName.trim() && { senderName: senderName.trim() }) };
            },
            onDone: {
              target: 'idle',
              actions: [
                assign({ grant: ({ event }) => event.output }),
                { type: 'startUploads', params: ({ context }) => ({ slug: context.slug, files: context.waiting }) },
                assign({ waiting: [] }),
              ],
            },
            onError: [
              { guard: requestChanged, target: '#fileRequest.loading', actions: assign({ waiting: [] }) },
              { target: 'idle', actions: assign({ grantFailure: failureOf, waiting: [] }) },
            ],
          },
        },
        /** The counts and the sent list after an upload; the page stays as it is meanwhile. */
        refreshing: {
          invoke: {
            src: 'loadRequest',
            input: ({ context }) => ({ slug: context.slug, ...(context.grant && { grant: context.grant }) }),
            onDone: [
              { guard: ({ event }) => !isOpen({ event }), target: '#fileRequest.unavailable', actions: assign({ loaded: loadedOf }) },
              { target: 'idle', actions: assign({ loaded: loadedOf }) },
            ],
            onError: 'idle',
          },
          on: { 'upload.done': { target: 'refreshing', reenter: true } },
        },
      },
      on: {
        'request.reload': 'loading',
        // With a grant, files chosen while the counts refresh go at once.
        'files.send': { guard: 'hasGrant', actions: { type: 'startUploads', params: ({ context, event }) => ({ slug: context.slug, files: event.files }) } },
      },
    },
  },
});
