import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { WebhookEvent, WebhookFormat } from '../../../../contract/webhooks';

export const EVENT_LABELS: Record<WebhookEvent, MessageDescriptor> = {
  'paste.created': msg`Paste created`,
  'paste.viewed': msg`Paste viewed`,
  'paste.expired': msg`Paste expired`,
  'file.created': msg`File share created`,
  'file.downloaded': msg`File downloaded`,
  'file.expired': msg`File share expired`,
  'file_request.received': msg`File request received a file`,
  'file_request.full': msg`File request full`,
  'expense.submitted': msg`Expense claim submitted`,
  'expense.decided': msg`Expense claim approved or rejected`,
  'job.finished': msg`Server job finished`,
};

export const FORMAT_LABELS: Record<WebhookFormat, MessageDescriptor> = {
  json: msg`JSON (signed payload)`,
  discord: msg`Discord`,
  slack: msg`Slack`,
  ntfy: msg`ntfy`,
};
