import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router';
import { OfflineBanner } from './components/ui/request-state';
import { ToastProvider } from './components/ui/toast';
import { applyLanguage, initialLanguage } from './i18n';
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

// the screens start in the user's language (Russian and Armenian fetch their catalogue first)
void applyLanguage(initialLanguage())
  .catch(() => applyLanguage('en'))
  .finally(render);
