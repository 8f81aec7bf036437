import { loadMe } from './chrome.js';

void loadMe();
