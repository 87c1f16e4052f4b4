import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router';
import { OfflineBanner } from './components/ui/offline-banner';
import { ToastProvider } from './components/ui/toast';
import { applyLanguage, initialLanguage } from './i18n/startup';
import './styles.css';

const render = () =>
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <ToastProvider>
        <OfflineBanner />
        <AppRouter />
      </ToastProvider>
    </StrictMode>,
  );

// the screens start in the user's language: English from the bundled texts, Russian and Armenian
// once i18next and their catalogue are in (docs/decisions/0024-login-bundle.md)
void applyLanguage(initialLanguage())
  .catch(() => applyLanguage('en'))
  .finally(render);
