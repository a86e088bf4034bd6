import type { WebhookFormat, WebhookPayload } from '../../../contract/webhooks';

/** A request body, its type and any headers its format adds. */
export interface WebhookBody {
  body: string;
  contentType: string;
  headers: Record<string, string>;
}

/** One line for people (chat and push formats): what happened and to what. */
export function describeEvent(payload: WebhookPayload): string {
  const data = payload.data;
  const name = (key: string) => (typeof data[key] === 'string' ? String(data[key]) : '');
  switch (payload.event) {
    case 'paste.created':
      return `New paste ${name('slug')}`;
    case 'paste.viewed':
      return `Paste ${name('slug')} was viewed`;
    case 'paste.expired':
      return `Paste ${name('slug')} expired`;
    case 'file.created':
      return `New file ${name('filename')} (${name('slug')})`;
    case 'file.downloaded':
      return `File ${name('filename')} (${name('slug')}) was downloaded`;
    case 'file.expired':
      return `File ${name('filename')} (${name('slug')}) expired`;
    case 'file_request.received': {
      const request = data.request as { title?: string } | undefined;
      const file = data.file as { filename?: string } | undefined;
      return `File request "${request?.title ?? ''}" received ${file?.filename ?? 'a file'}`;
    }
    case 'file_request.full':
      return `File request "${name('title')}" is full`;
    case 'expense.submitted':
      return `Expense claim "${name('title')}" was submitted`;
    case 'expense.decided':
      return `Expense claim "${name('title')}" was ${name('status')}`;
    case 'job.finished':
      return `Job ${name('summary')} ended: ${name('status')}`;
    case 'webhook.test':
      return 'Test event from Clipstash';
  }
}

/**
 * The body a webhook of `format` receives: the payload itself (`json`), or a message in the shape Discord, Slack or
 * ntfy take at their webhook or topic URL. Every body is signed the same way.
 */
export function bodyFor(format: WebhookFormat, payload: WebhookPayload): WebhookBody {
  const text = `${describeEvent(payload)} [${payload.event}]`;
  switch (format) {
    case 'json':
      return { body: JSON.stringify(payload), contentType: 'application/json', headers: {} };
    case 'discord':
      return { body: JSON.stringify({ content: text, allowed_mentions: { parse: [] } }), contentType: 'application/json', headers: {} };
    case 'slack':
      return { body: JSON.stringify({ text }), contentType: 'application/json', headers: {} };
    case 'ntfy':
      // ntfy takes the message as the body of a POST to the topic's URL; the title and tags go in headers.
      return { body: describeEvent(payload), contentType: 'text/plain; charset=utf-8', headers: { Title: 'Clipstash', Tags: payload.event } };
  }
}
