import { useActorRef, useSelector } from '@xstate/react';
import { useEffect } from 'react';
import { fromPromise } from 'xstate';
import { fileRequestMachine } from '../../../machines/file-request.machine';
import { fileRequestGrants, fileRequestTask } from '../../app/file-request-tasks';
import { taskFromJournal, type TaskManager } from '../../app/tasks';
import { askFileRequestGrant, getPublicFileRequest, listSentFiles } from '../../lib/api/file-requests';
import { transferEngine } from '../../lib/engine-client';

/** The request machine of this page, with the API and the task manager behind it. */
export function useFileRequest(slug: string, tasks: TaskManager) {
  const actor = useActorRef(
    fileRequestMachine.provide({
      actors: {
        loadRequest: fromPromise(async ({ input }) => ({
          request: await getPublicFileRequest(input.slug),
          sent: input.grant ? await listSentFiles(input.slug, input.grant).catch(() => []) : [],
        })),
        requestGrant: fromPromise(async ({ input }) => {
          const grant = await askFileRequestGrant(input.slug, { ...(input.password && { password: input.password }), ...(input.senderName && { sender_name: input.senderName }) });
          fileRequestGrants.set(input.slug, grant);
          return grant.grant;
        }),
      },
      actions: {
        startUploads: (_, { slug: at, files }) => {
          for (const file of files) tasks.send({ type: 'tasks.add', task: fileRequestTask(at, file) });
        },
      },
    }),
    { input: { slug, ...(fileRequestGrants.get(slug) && { grant: fileRequestGrants.get(slug) }) } },
  );
  const snapshot = useSelector(actor, (state) => state);
  return { actor, snapshot, send: actor.send };
}

export type RequestTask = ReturnType<typeof useRequestTasks>[number];

/** This request's uploads in the task manager, newest last. */
export function useRequestTasks(tasks: TaskManager, slug: string) {
  return useSelector(
    tasks,
    (state) =>
      state.context.tasks.filter((task) => {
        const payload = task.ref.getSnapshot().context.payload;
        return payload.kind === 'fileRequestUpload' && payload.slug === slug;
      }),
    (a, b) => a.length === b.length && a.every((task, index) => task === b[index]),
  );
}

/**
 * After a reload, this request's unfinished uploads come back from the journal, waiting for their files (a visitor
 * is signed in nowhere, so the app does not restore them itself); each task that completes says so once.
 */
export function useRequestUploads(tasks: TaskManager, slug: string, uploads: ReturnType<typeof useRequestTasks>, onDone: () => void) {
  useEffect(() => {
    void transferEngine.journalTasks().then(
      (journal) => {
        const unfinished = journal.filter((task) => task.kind === 'fileRequest' && task.requestSlug === slug && task.status !== 'completed' && task.status !== 'cancelled');
        if (unfinished.length > 0) tasks.send({ type: 'tasks.restore', tasks: unfinished.map(taskFromJournal) });
      },
      () => undefined,
    );
  }, [tasks, slug]);
  useEffect(() => {
    const subscriptions = uploads.map((task) => {
      let done = task.ref.getSnapshot().value === 'completed';
      return task.ref.subscribe((state) => {
        if (state.value === 'completed' && !done) {
          done = true;
          onDone();
        }
      });
    });
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [uploads, onDone]);
}
