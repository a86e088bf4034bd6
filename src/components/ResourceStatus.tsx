import { useLingui } from '@lingui/react/macro';
import type { Resource } from '../lib/use-resource';
import { Button } from './Button';
import { Notice } from './Notice';
import { PageSkeleton } from './PageSkeleton';

/** What a loading or failed resource shows: a skeleton the first time, or the failure with a retry. */
export function ResourceStatus({ resource, errorTitle, lines }: { resource: Resource<unknown>; errorTitle: string; lines?: number }) {
  const { t } = useLingui();
  if (resource.status === 'error') {
    return (
      <Notice level={2} role="alert" title={errorTitle} actions={<Button onClick={resource.reload}>{t`Retry`}</Button>}>
        {resource.error.message}
      </Notice>
    );
  }
  if (resource.status === 'loading' && resource.data === undefined) return <PageSkeleton lines={lines} />;
  return null;
}
