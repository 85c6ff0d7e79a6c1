import { mount } from 'svelte';
import App from './app/App.svelte';
import './app/app.css';

mount(App, { target: document.getElementById('app')! });

// Offline use once loaded: a small service worker caches this build's own files (production only;
// a relative URL so it is scoped to whatever sub-path the build is served from).
if (import.meta.env.PROD && 'serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('./sw.js').catch(() => {
    // Offline support is a convenience: the workbench works the same without it.
  });
}
