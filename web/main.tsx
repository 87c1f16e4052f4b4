import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { AppRouter } from './app/router';
import { OfflineBanner } from './components/ui/request-state';
import { ToastProvider } from './components/ui/toast';
import './styles.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ToastProvider>
      <OfflineBanner />
      <AppRouter />
    </ToastProvider>
  </StrictMode>,
);
