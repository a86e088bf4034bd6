import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useId, useState } from 'react';
import type { ConflictChoice, ConflictDecision, FsConflict } from '../../../contract/transfer';
import { conflictsOf, type TaskActor } from '../../../machines/task.machine';
import { formatBytes } from '../../lib/format';
import { BreakableName } from '../BreakableName';
import { Button } from '../Button';
import { Dialog, dialogStyles } from '../Dialog';
import styles from './TaskManager.module.css';

interface ConflictDialogProps {
  task: TaskActor;
  /** Closing without a choice leaves the task waiting; its row offers the choice again. */
  onClose: () => void;
}

const nameOf = (path: string) => path.replace(/\/$/, '').split('/').pop() ?? path;

/**
 * Asks what becomes of the names a task found taken, once for the task: skip, replace, or keep both (the new one
 * under `name (1).ext`), identical files skipped unless the user says otherwise. Without "apply to all" it asks file
 * by file. It only sends the decision to the task; the task's next run does the rest.
 */
export function ConflictDialog({ task, onClose }: ConflictDialogProps) {
  const { t } = useLingui();
  const conflicts = useSelector(task, (state) => conflictsOf(state.context.result));
  const label = useSelector(task, (state) => state.context.label);
  const identical = conflicts.filter((conflict) => conflict.identical).length;
  const [skipIdentical, setSkipIdentical] = useState(true);
  const [applyToAll, setApplyToAll] = useState(true);
  /** File-by-file choices so far, in the order of `asked`. */
  const [perPath, setPerPath] = useState<Record<string, ConflictChoice>>({});
  const skipIdenticalId = useId();
  const applyToAllId = useId();
  // File by file, identical files are not asked about when they are skipped anyway.
  const asked = conflicts.filter((conflict) => !(skipIdentical && conflict.identical));
  const current = applyToAll ? undefined : asked[Object.keys(perPath).length];

  const decide = (choice: ConflictChoice) => {
    if (applyToAll || asked.length === 0) return send({ choice, skipIdentical });
    const chosen = { ...perPath, [current!.path]: choice };
    if (Object.keys(chosen).length < asked.length) return setPerPath(chosen);
    send({ choice, skipIdentical, perPath: chosen });
  };
  const send = (decision: ConflictDecision) => {
    task.send({ type: 'task.resolve', decision });
    onClose();
  };
  if (conflicts.length === 0) return null;

  const choices: { choice: ConflictChoice; label: string; hint: string }[] = [
    { choice: 'skip', label: t`Skip`, hint: t`Keep what is there; leave these out.` },
    { choice: 'replace', label: t`Replace`, hint: t`Write over what is there.` },
    { choice: 'rename', label: t`Keep both`, hint: t`Add the new ones with a number, e.g. "name (1).txt".` },
  ];
  return (
    <Dialog
      open
      onOpenChange={(open) => !open && onClose()}
      title={t`Some names already exist`}
      description={
        identical > 0
          ? t`${conflicts.length} items of "${label}" already exist where they go; ${identical} of them are identical.`
          : t`${conflicts.length} items of "${label}" already exist where they go.`
      }
    >
      <div className={styles.conflicts}>
        {current ? (
          <ConflictDetail conflict={current} position={Object.keys(perPath).length + 1} of={asked.length} />
        ) : (
          <ul className={styles.conflictNames} aria-label={t`Names that already exist`}>
            {/* The files that differ first: those are the ones the choice is about. */}
            {[...conflicts]
              .sort((one, other) => Number(one.identical) - Number(other.identical))
              .slice(0, 5)
              .map((conflict) => (
              <li key={conflict.path}>
                <BreakableName name={nameOf(conflict.targetPath || conflict.path)} />
                {conflict.identical && <span className={styles.meta}> · {t`identical`}</span>}
              </li>
              ))}
            {conflicts.length > 5 && <li className={styles.meta}>{t`and ${conflicts.length - 5} more`}</li>}
          </ul>
        )}
        {identical > 0 && (
          <label className={styles.check} htmlFor={skipIdenticalId}>
            <input id={skipIdenticalId} type="checkbox" checked={skipIdentical} onChange={(event) => setSkipIdentical(event.target.checked)} />
            {t`Skip identical files (same size and content)`}
          </label>
        )}
        {asked.length > 1 && (
          <label className={styles.check} htmlFor={applyToAllId}>
            <input
              id={applyToAllId}
              type="checkbox"
              checked={applyToAll}
              onChange={(event) => {
                setApplyToAll(event.target.checked);
                setPerPath({});
              }}
            />
            {t`Apply to all ${asked.length} conflicts`}
          </label>
        )}
      </div>
      <div className={dialogStyles.actions}>
        {choices.map(({ choice, label: text, hint }) => (
          <Button key={choice} variant={choice === 'skip' ? 'primary' : 'default'} title={hint} onClick={() => decide(choice)}>
            {text}
          </Button>
        ))}
      </div>
    </Dialog>
  );
}

/** One conflict asked about on its own: which file, and how the two differ. */
function ConflictDetail({ conflict, position, of }: { conflict: FsConflict; position: number; of: number }) {
  const { t } = useLingui();
  const name = nameOf(conflict.targetPath || conflict.path);
  return (
    <div aria-live="polite">
      <p>
        <strong>
          <BreakableName name={name} />
        </strong>{' '}
        <span className={styles.meta}>{t`(${position} of ${of})`}</span>
      </p>
      {conflict.existingSize !== undefined && conflict.newSize !== undefined && (
        <p className={styles.meta}>
          {conflict.identical
            ? t`Identical: ${formatBytes(conflict.newSize)}`
            : t`There now: ${formatBytes(conflict.existingSize)}. New: ${formatBytes(conflict.newSize)}.`}
        </p>
      )}
    </div>
  );
}
