/** `public/AddClipDialog`: the add-clip dialog the shell's mobile bottom bar opens (default export). */
export { default } from '../components/add-clip-dialog.js';
