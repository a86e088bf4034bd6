import * as v from 'valibot';
import { jobListSchema, jobSchema, syncDryRunSchema, syncScheduleSchema } from '../../../contract/jobs';
import { docsOf, type RouteDoc, type RouteKey } from './types';

const tag = 'Jobs';

const eventStream = [
  {
    status: 200,
    contentType: 'text/event-stream',
    description:
      'Server-Sent Events: first `snapshot` (`{type, jobs}`: every job not ended, and those ended in the last 24 hours), ' +
      'then `job` (`{type, job}`) at each change, on any instance; a comment line every 15 s keeps the stream open.',
  },
] as const;

const jobDocs = (area: 'admin' | 'user') => {
  const base = `/api/${area}/jobs` as const;
  const whose = area === 'admin' ? 'every job' : 'your own jobs (an admin: every job)';
  const entries: [RouteKey, RouteDoc][] = [
    [
      `POST ${base}`,
      {
        tag,
        summary: 'Start a copy, move or sync on the server',
        description:
          'Lists what the job will do first: a source outside your base path, or files that do not fit the target\'s max ' +
          'upload size (413 `file_too_large`) or quota (413 `quota_exceeded`), refuse the job before it starts. A `mirror` ' +
          'sync deletes in the target and needs `confirmMirror: true` (400 `mirror_unconfirmed`).',
        data: jobSchema,
        ok: [201],
        errors: [403, 404, 409, 413],
      },
    ],
    [`GET ${base}`, { tag, summary: `List ${whose}`, description: 'Newest first; `status` filters.', data: jobListSchema }],
    [`GET ${base}/events`, { tag, summary: `Watch ${whose} live`, raw: eventStream }],
    [`GET ${base}/:id`, { tag, summary: 'Read a job: status, counts, bytes, current item, failures', data: jobSchema, errors: [404] }],
    [`POST ${base}/:id/pause`, { tag, summary: 'Pause a queued or running job', data: jobSchema, errors: [404, 409] }],
    [`POST ${base}/:id/resume`, { tag, summary: 'Resume a paused job from its records', data: jobSchema, errors: [404, 409] }],
    [
      `POST ${base}/:id/cancel`,
      { tag, summary: 'Cancel a job', description: 'Multipart uploads it had open are aborted.', data: jobSchema, errors: [404, 409] },
    ],
    [
      `POST ${base}/:id/retry-failed`,
      { tag, summary: 'Run the failed items of an ended job again', data: jobSchema, errors: [404, 409] },
    ],
  ];
  return entries;
};

export const jobsDocs = docsOf([...jobDocs('admin'), ...jobDocs('user')]);

const base = '/api/admin/sync-schedules';

export const syncScheduleDocs = docsOf([
  [`GET ${base}`, { tag, summary: 'List sync schedules, with their next run', data: v.array(syncScheduleSchema) }],
  [
    `POST ${base}`,
    {
      tag,
      summary: 'Schedule a sync',
      description:
        '`cron` has five fields (minute hour day month weekday), read in UTC. A `mirror` needs `confirmMirror: true`. ' +
        'Each run is a sync job, named after the schedule in the task manager.',
      data: syncScheduleSchema,
      ok: [201],
      errors: [404],
    },
  ],
  [`GET ${base}/:id`, { tag, summary: 'Read a sync schedule', data: syncScheduleSchema, errors: [404] }],
  [`PUT ${base}/:id`, { tag, summary: 'Change a sync schedule', data: syncScheduleSchema, errors: [404] }],
  [`DELETE ${base}/:id`, { tag, summary: 'Delete a sync schedule (not its jobs)', data: v.null(), errors: [404] }],
  [`POST ${base}/:id/run`, { tag, summary: 'Run a sync schedule now', data: jobSchema, ok: [201], errors: [404, 413] }],
  [
    `POST ${base}/:id/dry-run`,
    { tag, summary: 'What a run would copy and delete, without doing it', data: syncDryRunSchema, errors: [404] },
  ],
]);
