import { useLingui } from '@lingui/react/macro';
import { useSelector } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FileShare } from '../../../contract/files';
import { isShareBatchResult } from '../../../contract/transfer';
import { slugProblem } from '../../../contract/slugs';
import type { TaskInput } from '../../../machines/task.machine';
import { useTaskManager } from '../../app/actors';
import { listStorageConfigs } from '../../lib/api/storage-configs';
import { getUploadDefaults } from '../../lib/api/system';
import { recentUploads, type RecentUpload } from '../../lib/recent-uploads';
import { useResource } from '../../lib/use-resource';
import { emptyUploadForm, photoMetadataOf, type UploadFormValues } from './upload-options';

/**
 * What both upload tabs share: storage choice, share options, the tasks this page started (sent to the
 * app's task manager), and the recent-uploads list they feed.
 */
export function useUploadForm() {
  const { t } = useLingui();
  const tasks = useTaskManager();
  const configs = useResource(listStorageConfigs);
  const uploadDefaults = useResource(getUploadDefaults);
  const [configId, setConfigId] = useState<string>();
  const [values, setValues] = useState<UploadFormValues>(emptyUploadForm);
  const [batch, setBatch] = useState<string[]>([]);
  const [recent, setRecent] = useState<RecentUpload[]>(() => recentUploads.list());
  const setValue = useCallback(
    <K extends keyof UploadFormValues>(field: K, value: UploadFormValues[K]) => setValues((previous) => ({ ...previous, [field]: value })),
    [],
  );

  const defaultConfig = configs.data?.find((config) => config.is_default) ?? configs.data?.[0];
  const selectedConfig = configId ?? defaultConfig?.id;

  const allTasks = useSelector(tasks, (state) => state.context.tasks);
  const batchTasks = useMemo(() => allTasks.filter((task) => batch.includes(task.id)), [allTasks, batch]);

  // Each finished upload of this page joins the recent ones, once: every share of a batch, even one partly done.
  const recorded = useRef(new Set<string>());
  useEffect(() => {
    const subscriptions = batchTasks.map((task) =>
      task.ref.subscribe((state) => {
        if (state.value !== 'completed' && state.value !== 'partial') return;
        const result = state.context.result;
        const shares = isShareBatchResult(result) ? result.shares.map((entry) => entry.share) : state.value === 'completed' && result ? [result as FileShare] : [];
        for (const share of shares) {
          if (!share.id || recorded.current.has(share.id)) continue;
          recorded.current.add(share.id);
          setRecent(recentUploads.add({ slug: share.slug, filename: share.filename, size: share.size, uploadedAt: share.created_at }));
        }
      }),
    );
    return () => subscriptions.forEach((subscription) => subscription.unsubscribe());
  }, [batchTasks]);

  /** The first problem with the share options, in words. */
  const optionsProblem = (fileCount: number): string | undefined => {
    const slug = values.slug.trim();
    if (fileCount === 1 && slug && slugProblem(slug)) return t`Only letters, digits, hyphen and underscore, at most 50 characters`;
    if (values.maxViews.trim() && !/^\d+$/.test(values.maxViews.trim())) return t`Enter a whole number, 0 or more`;
    return undefined;
  };

  const start = (inputs: TaskInput[]) => {
    for (const task of inputs) tasks.send({ type: 'tasks.add', task });
    setBatch(inputs.map((task) => task.id));
    // The one-off settings are cleared: the next upload must not quietly get this password or link.
    setValues((previous) => ({ ...emptyUploadForm, expiresIn: previous.expiresIn, photoMetadata: previous.photoMetadata }));
  };

  const photoMetadata = photoMetadataOf(values, uploadDefaults.data?.strip_image_location);
  return { configs, selectedConfig, setConfigId, values, setValue, photoMetadata, optionsProblem, start, batchTasks, recent };
}
