import * as RadixDialog from '@radix-ui/react-dialog';
import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { ListChecks, X } from 'lucide-react';
import { useCallback, useState } from 'react';
import type { ActorRefFrom } from 'xstate';
import { PARTS_PER_UPLOAD_CHOICES } from '../../../contract/transfer';
import type { TaskManagerContext, taskManagerMachine } from '../../../machines/task-manager.machine';
import { isFinished } from '../../../machines/task.machine';
import { Button } from '../Button';
import { dialogStyles } from '../Dialog';
import { Field } from '../Field';
import styles from './TaskManager.module.css';
import { TaskRow } from './TaskRow';
import { useTaskChanges } from './use-task-changes';

type TaskManagerActor = ActorRefFrom<typeof taskManagerMachine>;

/**
 * Rows in the page at first, newest first; "show older" adds as many again. Rows off screen are not rendered
 * (`content-visibility`), and a list of thousands of tasks never puts thousands of rows, each watching its task,
 * in the page.
 */
const ROWS_AT_ONCE = 100;

/**
 * The live task manager: a side panel listing every transfer (it survives reloads through the engine's
 * journal), with cancel, retry, remove and clear finished. It only sends events and renders machine state.
 */
export function TaskManagerPanel({ manager }: { manager: TaskManagerActor }) {
  const { t } = useLingui();
  const tasks = useSelector(manager, (state) => state.context.tasks);
  const active = useCountOf(tasks, (status) => !isFinished(status));
  const finished = useCountOf(tasks, isFinished);
  const remove = useCallback((id: string) => manager.send({ type: 'task.remove', id }), [manager]);
  const [shown, setShown] = useState(ROWS_AT_ONCE);
  const older = tasks.length - shown;
  return (
    <RadixDialog.Root>
      <RadixDialog.Trigger asChild>
        <Button aria-label={t`Tasks (${active} active)`}>
          <ListChecks size={17} aria-hidden />
          {t`Tasks`}
          {active > 0 && <span className={styles.count}>{active}</span>}
        </Button>
      </RadixDialog.Trigger>
      <RadixDialog.Portal>
        <RadixDialog.Overlay className={dialogStyles.overlay} />
        <RadixDialog.Content className={styles.sheet}>
          <div className={styles.sheetHead}>
            <RadixDialog.Title className={styles.sheetTitle}>{t`Task manager`}</RadixDialog.Title>
            <Button size="small" disabled={finished === 0} onClick={() => manager.send({ type: 'tasks.clearFinished' })}>
              {t`Clear finished`}
            </Button>
            <RadixDialog.Close asChild>
              <Button variant="ghost" size="icon" aria-label={t`Close`}>
                <X size={18} aria-hidden />
              </Button>
            </RadixDialog.Close>
          </div>
          <RadixDialog.Description className="visually-hidden">{t`Every transfer of this browser and how far it got.`}</RadixDialog.Description>
          <PartsPerUploadField manager={manager} />
          {tasks.length === 0 ? (
            <p className={styles.empty}>{t`No tasks yet. Uploads and copies appear here while they run.`}</p>
          ) : (
            <ul className={styles.list}>
              {tasks
                .slice(-shown)
                .reverse()
                .map((task) => (
                  <TaskRow key={task.id} task={task.ref} onRemove={remove} />
                ))}
            </ul>
          )}
          {older > 0 && (
            <Button size="small" onClick={() => setShown((count) => count + ROWS_AT_ONCE)}>
              {t`Show ${Math.min(older, ROWS_AT_ONCE)} older tasks (${older} in all)`}
            </Button>
          )}
        </RadixDialog.Content>
      </RadixDialog.Portal>
    </RadixDialog.Root>
  );
}

/** How many tasks are in a status that `counts`, kept current as each task moves. */
const useCountOf = (tasks: TaskManagerContext['tasks'], counts: (status: string) => boolean): number =>
  useTaskChanges(tasks, () => tasks.filter((task) => counts(String(task.ref.getSnapshot().value))).length);

/** This browser's parts in flight per upload; a change applies at once, to running uploads too. */
function PartsPerUploadField({ manager }: { manager: TaskManagerActor }) {
  const { t } = useLingui();
  const value = useSelector(manager, (state) => state.context.partsPerUpload);
  return (
    <div className={styles.settings}>
      <Field label={t`Parts at once per upload`} hint={t`More can be faster on a fast connection; fewer is gentler on a slow one.`}>
        <select
          name="partsPerUpload"
          className={styles.narrow}
          value={value}
          onChange={(event) => manager.send({ type: 'tasks.partsPerUpload', value: Number(event.target.value) })}
        >
          {PARTS_PER_UPLOAD_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice}
            </option>
          ))}
        </select>
      </Field>
    </div>
  );
}
