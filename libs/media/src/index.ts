export * from './errors.js';
export * from './config.js';
export { runTool, type RunToolOptions, type ToolOutput } from './ffmpeg/run.js';
export * from './ffmpeg/probe.js';
export * from './ffmpeg/transcode.js';
export * from './media-tools.js';
export * from './ffmpeg/frames.js';
export * from './watermark.js';
export * from './web-ready.js';
