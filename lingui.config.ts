import { defineConfig } from '@lingui/cli';

/**
 * Sources of the messages a visitor can meet on either share's page before the whole catalog has loaded: the shell
 * and what both pages show. Not the shell's dialogs and prompts: the settings dialog loads the whole catalog with
 * its code, and the install and update prompts come after it (main.tsx).
 */
const SHELL_SOURCES = [
  '<rootDir>/src/app/Router.tsx',
  '<rootDir>/src/app/routes.ts',
  '<rootDir>/src/app/shell/Header.tsx',
  '<rootDir>/src/app/shell/LanguageSwitcher.tsx',
  '<rootDir>/src/app/shell/OfflineBadge.tsx',
  '<rootDir>/src/app/shell/SettingsButton.tsx',
  '<rootDir>/src/app/shell/Shell.tsx',
  '<rootDir>/src/app/shell/ThemeToggle.tsx',
  '<rootDir>/src/pages/offline/**',
  '<rootDir>/src/components/Field.tsx',
  '<rootDir>/src/components/PageSkeleton.tsx',
  '<rootDir>/src/components/PasswordGate.tsx',
  '<rootDir>/src/components/Toaster.tsx',
  '<rootDir>/src/components/views-left.ts',
  '<rootDir>/src/lib/api/client.ts',
];

/**
 * A share's page renders with its visitor's catalog (the shell's messages and its own: src/lib/i18n.ts), and loads
 * the whole catalog once it has settled; every other page renders with the whole catalog. A message is in every
 * catalog whose sources use it, with the same translation.
 */
export default defineConfig({
  sourceLocale: 'en-US',
  locales: ['en-US', 'zh-CN'],
  fallbackLocales: { default: 'zh-CN' },
  catalogs: [
    {
      path: '<rootDir>/src/locales/{locale}/visitor-paste',
      include: [...SHELL_SOURCES, '<rootDir>/src/pages/paste-view/**', '<rootDir>/src/lib/api/paste-reads.ts'],
    },
    {
      path: '<rootDir>/src/locales/{locale}/visitor-file',
      include: [
        ...SHELL_SOURCES,
        '<rootDir>/src/pages/file-view/**',
        // Not its viewers/: they load on demand, with the whole catalog (FilePreview.tsx).
        '<rootDir>/src/components/file-preview/*',
        '<rootDir>/src/lib/api/file-reads.ts',
      ],
    },
    { path: '<rootDir>/src/locales/{locale}/messages', include: ['<rootDir>/src'] },
  ],
  format: 'po',
});
