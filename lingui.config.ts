import { defineConfig } from '@lingui/cli';

/**
 * Sources of the messages a visitor can meet on a share's page before the rest of the catalog has loaded: the
 * shell, the share pages and what they show (src/lib/i18n.ts loads the rest with every other page, and on a share's
 * page once it has settled). A message used here and elsewhere is in both catalogs, with the same translation.
 * Not the shell's dialogs and prompts: the settings dialog loads the rest with its code, and the install and update
 * prompts come after it (main.tsx).
 */
const VISITOR_SOURCES = [
  '<rootDir>/src/app/Router.tsx',
  '<rootDir>/src/app/routes.ts',
  '<rootDir>/src/app/shell/Header.tsx',
  '<rootDir>/src/app/shell/LanguageSwitcher.tsx',
  '<rootDir>/src/app/shell/OfflineBadge.tsx',
  '<rootDir>/src/app/shell/SettingsButton.tsx',
  '<rootDir>/src/app/shell/Shell.tsx',
  '<rootDir>/src/app/shell/ThemeToggle.tsx',
  '<rootDir>/src/pages/paste-view/**',
  '<rootDir>/src/pages/file-view/**',
  '<rootDir>/src/pages/offline/**',
  '<rootDir>/src/components/Field.tsx',
  '<rootDir>/src/components/PageSkeleton.tsx',
  '<rootDir>/src/components/PasswordGate.tsx',
  '<rootDir>/src/components/Toaster.tsx',
  '<rootDir>/src/components/views-left.ts',
  // Not its viewers/: they load on demand, with the whole catalog (FilePreview.tsx).
  '<rootDir>/src/components/file-preview/*',
  '<rootDir>/src/lib/api/client.ts',
  '<rootDir>/src/lib/api/file-reads.ts',
  '<rootDir>/src/lib/api/paste-reads.ts',
];

export default defineConfig({
  sourceLocale: 'en-US',
  locales: ['en-US', 'zh-CN'],
  fallbackLocales: { default: 'zh-CN' },
  catalogs: [
    { path: '<rootDir>/src/locales/{locale}/visitor', include: VISITOR_SOURCES },
    { path: '<rootDir>/src/locales/{locale}/messages', include: ['<rootDir>/src'], exclude: VISITOR_SOURCES },
  ],
  format: 'po',
});
