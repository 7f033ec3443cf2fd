import { mountLexicalComposer } from '../lexical-composer';

mountLexicalComposer('perplexity-rich', document.getElementById('ask-input') as HTMLElement, { rich: true });
