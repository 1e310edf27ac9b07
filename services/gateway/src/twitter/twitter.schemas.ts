import { z } from 'zod';
import type { Oembed } from './oembed.js';

// GET /api/twitter/oembed: X's oEmbed answer for one post, only the fields X documents (oembed.ts picks
// them). The public site reads a thumbnail from `thumbnail_url` or the first image of `html`.

const text = (description: string) => z.string().optional().describe(description);
const size = (description: string) => z.number().nullable().optional().describe(description);

export const oembedSchema = z
  .object({
    type: text('Always "rich" for a post'),
    version: text('The oEmbed version, "1.0"'),
    html: z.string().describe('The embed: a blockquote of the post (X’s HTML, without its script)'),
    author_name: text('The author’s display name'),
    author_url: text('The author’s page on X'),
    provider_name: text('"Twitter"'),
    provider_url: text('X’s address'),
    url: text('The post’s canonical link'),
    thumbnail_url: text('An image of the post, when X gives one'),
    width: size('The embed’s width in pixels'),
    height: size('The embed’s height in pixels (X sends null)'),
    cache_age: size('How long X says the answer may be kept, in seconds'),
    thumbnail_width: size('The thumbnail’s width'),
    thumbnail_height: size('The thumbnail’s height'),
  })
  .meta({ id: 'PostEmbed' });
export type OembedJson = z.infer<typeof oembedSchema>;

// The picked fields and the documented shape are the same set.
export const toOembedJson = (oembed: Oembed): OembedJson => oembed;
