import { I18nProvider } from '@lingui/react';
import { i18n } from '@lingui/core';
import { ActorsProvider, type ActorsLoader } from './actors';
import { AppRouter } from './Router';
import { Shell } from './shell/Shell';

export function App({ actors }: { actors: ActorsLoader }) {
  return (
    <I18nProvider i18n={i18n}>
      <ActorsProvider actors={actors}>
        <Shell>
          <AppRouter />
        </Shell>
      </ActorsProvider>
    </I18nProvider>
  );
}
