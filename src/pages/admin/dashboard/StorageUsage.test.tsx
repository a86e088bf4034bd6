// @vitest-environment happy-dom
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { act } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { StorageUsage } from './StorageUsage';

beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
  i18n.loadAndActivate({ locale: 'en-US', messages: {} });
});

const unmounts: (() => void)[] = [];
afterEach(() => unmounts.splice(0).forEach((unmount) => act(unmount)));

const MB = 1024 * 1024;
const bucket = {
  id: 's1',
  name: 'Photos',
  providerType: 'MinIO',
  bucketName: 'family',
  usedStorage: 30 * MB,
  totalStorage: null as number | null,
  fileCount: 12,
  usagePercent: null as number | null,
};

async function render(props: Parameters<typeof StorageUsage>[0]) {
  const container = document.createElement('ul');
  const root = createRoot(container);
  await act(async () =>
    root.render(
      <I18nProvider i18n={i18n}>
        <StorageUsage {...props} />
      </I18nProvider>,
    ),
  );
  unmounts.push(() => root.unmount());
  const bar = container.querySelector('[role="progressbar"]');
  return { text: container.textContent?.replace(/\u00a0/g, ' ') ?? '', value: bar?.getAttribute('aria-valuenow'), label: bar?.getAttribute('aria-label') };
}

describe('StorageUsage', () => {
  it('with a quota: the quota used, the space free, the files, and a bar of the quota', async () => {
    const shown = await render({ bucket: { ...bucket, totalStorage: 120 * MB, usagePercent: 25 }, allBytes: 60 * MB });
    expect(shown.text).toContain('MinIO · family');
    expect(shown.text).toContain('30.0 MB of 120 MB (25%)');
    expect(shown.text).toContain('12 files');
    expect(shown.text).toContain('90.0 MB free');
    expect(shown).toMatchObject({ value: '25', label: 'Quota of Photos used' });
  });

  it('without one: what it holds and its part of all stored bytes, the bar showing that part', async () => {
    const shown = await render({ bucket, allBytes: 40 * MB });
    expect(shown.text).toContain('30.0 MB, no quota');
    expect(shown.text).toContain('75% of all stored');
    expect(shown).toMatchObject({ value: '75', label: 'Share of all stored data in Photos' });
  });

  it('names the built-in local storage in the reader\'s words, and an empty one holds 0%', async () => {
    const shown = await render({ bucket: { ...bucket, name: 'Local storage', providerType: 'Local', usedStorage: 0, fileCount: 1 }, allBytes: 0 });
    expect(shown.text).toContain('Server disk');
    expect(shown.text).toContain('1 file');
    expect(shown.text).toContain('0% of all stored');
    expect(shown.value).toBe('0');
  });
});
