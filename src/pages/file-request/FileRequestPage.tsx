import { plural } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import FileX from 'lucide-react/icons/file-x';
import Inbox from 'lucide-react/icons/inbox';
import Upload from 'lucide-react/icons/upload';
import { useCallback, useState } from 'react';
import { useParams } from 'wouter';
import { acceptOf, refusalsOfChoice, type FileRequestUpload, type PublicFileRequest } from '../../../contract/file-requests';
import { useTaskManager } from '../../app/actors';
import { Button } from '../../components/Button';
import { DropZone } from '../../components/DropZone';
import { Field } from '../../components/Field';
import { Notice } from '../../components/Notice';
import { PageSkeleton } from '../../components/PageSkeleton';
import { PasswordGate } from '../../components/PasswordGate';
import taskStyles from '../../components/task-manager/TaskManager.module.css';
import { TaskRow } from '../../components/task-manager/TaskRow';
import { formatBytes, formatDateTime } from '../../lib/format';
import styles from './FileRequest.module.css';
import { useFileRequest, useRequestTasks, useRequestUploads, type RequestTask } from './use-file-request';

/** `/request/{slug}`: anyone with the link sends files to the request's creator, within its limits, without an account. */
export default function FileRequestPage() {
  const { t } = useLingui();
  const { slug = '' } = useParams<{ slug: string }>();
  const tasks = useTaskManager();
  const { snapshot, send } = useFileRequest(slug, tasks);
  const uploads = useRequestTasks(tasks, slug);
  const refresh = useCallback(() => send({ type: 'upload.done' }), [send]);
  useRequestUploads(tasks, slug, uploads, refresh);
  const [senderName, setSenderName] = useState('');
  // Kept by the page, not the drop zone: a request that fills up replaces the drop zone, and the sender must still
  // learn which of the files they picked were not sent.
  const [refused, setRefused] = useState<string[]>([]);
  const { loaded, failure, grantFailure, grant } = snapshot.context;

  if (snapshot.matches('loading') || (!loaded && !failure)) return <PageSkeleton />;
  if (snapshot.hasTag('error') || !loaded) {
    return (
      <Notice
        icon={<FileX size={32} />}
        title={failure?.status === 404 ? t`This file request does not exist` : t`The file request could not be loaded`}
        actions={failure?.status !== 404 && <Button onClick={() => send({ type: 'request.reload' })}>{t`Try again`}</Button>}
      >
        {failure?.status === 404 ? t`Check the link you were given.` : failure?.message}
      </Notice>
    );
  }
  const { request, sent } = loaded;
  const nameField = (
    <Field label={t`Your name (optional)`} hint={t`Shown to the person who asked for the files.`}>
      <input name="sender_name" autoComplete="name" maxLength={100} value={senderName} onChange={(event) => setSenderName(event.target.value)} />
    </Field>
  );

  if (snapshot.hasTag('locked')) {
    return (
      <PasswordGate
        title={request.title}
        onPassword={async (password) => {
          send({ type: 'password.submit', password, senderName });
        }}
      >
        {grantFailure && (
          <p className="form-error" role="alert">
            {grantFailure.message}
          </p>
        )}
        {nameField}
      </PasswordGate>
    );
  }

  const pending = uploads.filter((task) => task.ref.getSnapshot().value !== 'completed');
  return (
    <div className={styles.page}>
      <header>
        <h1 className={styles.title}>{request.title}</h1>
        {request.message && <p className={styles.message}>{request.message}</p>}
      </header>
      {snapshot.hasTag('unavailable') ? (
        <UnavailableNotice request={request} />
      ) : (
        <section className={styles.panel} aria-label={t`Send files`}>
          <Limits request={request} />
          {grant ? <SendingAs name={senderName} /> : nameField}
          <Sender
            request={request}
            busy={snapshot.hasTag('busy')}
            uploads={uploads}
            onRefused={setRefused}
            onFiles={(files) => send({ type: 'files.send', files, senderName })}
          />
          {grantFailure && (
            <p className="form-error" role="alert">
              {grantFailure.message}
            </p>
          )}
        </section>
      )}
      <RefusedList refused={refused} />
      {pending.length > 0 && (
        <ul className={taskStyles.list} aria-label={t`Files uploading`}>
          {pending.map((task) => (
            <TaskRow key={task.id} task={task.ref} onRemove={(id) => tasks.send({ type: 'task.remove', id })} />
          ))}
        </ul>
      )}
      {pending.length === 0 && uploads.length > 0 && (
        <p className={styles.done} role="status">
          {t`Done: your files have arrived.`}
        </p>
      )}
      <SentList request={request} sent={sent} />
    </div>
  );
}

/**
 * The drop zone. A file picked again after a reload resumes its upload, whichever button picked it; files over the
 * per-file limit, of a type not accepted, or beyond the files and bytes the request still takes are refused here,
 * each with why.
 */
function Sender({
  request,
  busy,
  uploads,
  onRefused,
  onFiles,
}: {
  request: PublicFileRequest;
  busy: boolean;
  uploads: RequestTask[];
  onRefused: (problems: string[]) => void;
  onFiles: (files: File[]) => void;
}) {
  const { t } = useLingui();
  const choose = (files: File[]) => {
    const fresh = files.filter((file) => !resumeWith(uploads, file));
    const problems: string[] = [];
    const accepted: File[] = [];
    for (const { file, refusal } of refusalsOfChoice(fresh, request)) {
      const name = file.name;
      const max = formatBytes(request.max_file_size ?? 0);
      const maxFiles = request.max_files ?? 0;
      const maxTotal = formatBytes(request.max_total_size ?? 0);
      if (refusal === 'too_large') problems.push(t`${name} is larger than ${max}: it was not sent.`);
      else if (refusal === 'type_not_allowed') problems.push(t`${name} is not of an accepted type: it was not sent.`);
      else if (refusal === 'too_many_files') problems.push(t`${name} was not sent: the request takes no more files (its limit is ${maxFiles}).`);
      else if (refusal === 'over_total') problems.push(t`${name} would take the files sent over ${maxTotal} in all: it was not sent.`);
      else accepted.push(file);
    }
    onRefused(problems);
    if (accepted.length > 0) onFiles(accepted);
  };
  return (
    <DropZone
      onFiles={choose}
      disabled={busy}
      icon={<Upload size={24} aria-hidden />}
      prompt={t`Drop files here, or`}
      chooseLabel={t`Choose files`}
      accept={acceptOf(request.allowed_types)}
      testId="request-drop-zone"
      inputTestId="request-input"
    />
  );
}

/** Hands `file` to the upload that waits for it after a reload (same name and size); false when none does. */
function resumeWith(uploads: RequestTask[], file: File): boolean {
  const waiting = uploads.find((task) => {
    const state = task.ref.getSnapshot();
    return state.hasTag('needsFile') && state.context.label === file.name && state.context.progress.total === file.size;
  });
  waiting?.ref.send({ type: 'task.fileProvided', file });
  return waiting !== undefined;
}

function RefusedList({ refused }: { refused: string[] }) {
  const { t } = useLingui();
  if (refused.length === 0) return null;
  return (
    <div role="alert">
      <ul className={styles.refused} aria-label={t`Files not sent`}>
        {refused.map((problem) => (
          <li key={problem}>{problem}</li>
        ))}
      </ul>
    </div>
  );
}

/** Once the first files went, the name they went with (it cannot change for this grant). */
function SendingAs({ name }: { name: string }) {
  const { t } = useLingui();
  const trimmed = name.trim();
  if (!trimmed) return null;
  return <p className={styles.sendingAs}>{t`Sending as ${trimmed}`}</p>;
}

/** The limits, said before anything is uploaded. */
function Limits({ request }: { request: PublicFileRequest }) {
  const { t, i18n } = useLingui();
  const lines: string[] = [];
  if (request.max_files !== null) {
    const left = Math.max(0, request.max_files - request.files_received);
    lines.push(plural(left, { one: '# more file can be sent', other: '# more files can be sent' }));
  }
  if (request.max_file_size !== null) {
    const max = formatBytes(request.max_file_size);
    lines.push(t`Each file up to ${max}`);
  }
  if (request.max_total_size !== null) {
    const left = formatBytes(Math.max(0, request.max_total_size - request.bytes_received));
    lines.push(t`${left} left in all`);
  }
  if (request.allowed_types.length > 0) {
    const types = request.allowed_types.join(', ');
    lines.push(t`Accepted types: ${types}`);
  }
  if (request.expires_at) {
    const until = formatDateTime(request.expires_at, i18n.locale);
    lines.push(t`Open until ${until}`);
  }
  if (lines.length === 0) return null;
  return (
    <ul className={styles.limits} aria-label={t`Limits`}>
      {lines.map((line) => (
        <li key={line}>{line}</li>
      ))}
    </ul>
  );
}

function UnavailableNotice({ request }: { request: PublicFileRequest }) {
  const { t } = useLingui();
  const text: Record<PublicFileRequest['state'], string> = {
    open: '',
    closed: t`This file request is closed: it takes no more files.`,
    expired: t`This file request has expired: it takes no more files.`,
    full: t`This file request has received all the files it accepts.`,
  };
  return (
    <Notice level={2} role="status" icon={<Inbox size={28} />} title={t`No more files can be sent`}>
      {text[request.state]}
    </Notice>
  );
}

/** What this sender sent (or, where the request shows them, what everyone sent). */
function SentList({ request, sent }: { request: PublicFileRequest; sent: FileRequestUpload[] }) {
  const { t, i18n } = useLingui();
  if (sent.length === 0) return null;
  return (
    <section className={styles.sent}>
      <h2>{request.show_uploads ? t`Files sent` : t`Files you sent`}</h2>
      <ul className={taskStyles.list}>
        {sent.map((file) => (
          <li key={file.id} className={styles.sentFile} data-sent-file={file.sent_name}>
            <span className={taskStyles.name}>{file.sent_name}</span>
            <span className={taskStyles.meta}>
              {formatBytes(file.size)} · {formatDateTime(file.created_at, i18n.locale)}
              {request.show_uploads && file.sender_name ? ` · ${file.sender_name}` : ''}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
