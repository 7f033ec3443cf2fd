import { mountLexicalComposer } from '../lexical-composer';

mountLexicalComposer('perplexity', document.getElementById('ask-input') as HTMLElement, { rich: false });
