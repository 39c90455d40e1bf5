import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Router } from 'wouter';
import { App } from './app.tsx';
import { retryDelay, shouldRetry } from './api/retry.ts';
import './styles/base.css';

/** Server state lives in this one cache (CONVENTIONS: never copied into global mutable state). */
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 30_000, retry: shouldRetry, retryDelay, refetchOnWindowFocus: true } },
});

const root = document.getElementById('root');
if (root)
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Router base="/app">
          <App />
        </Router>
      </QueryClientProvider>
    </StrictMode>,
  );
