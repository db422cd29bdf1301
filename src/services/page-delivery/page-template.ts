import Handlebars from 'handlebars';
import { SPARoute } from '../router/sp-route';

const handlebars = Handlebars.create();

/**
 * Every value goes through `{{ }}`, which HTML-escapes it: page content, titles and article text are shown as text,
 * so markup or scripts stored in them can never run in a visitor's browser.
 */
const template = handlebars.compile<PageModel>(
  `<!DOCTYPE html>
<html lang="{{lang}}">
<head>
<meta charset="utf-8">
<title>{{title}}</title>
{{#if description}}<meta name="description" content="{{description}}">
{{/if}}</head>
<body>
<main data-status="{{status}}">
{{#if page}}<article class="page" data-page-url="{{page.pageUrl}}">{{page.content}}</article>
{{/if}}{{#if container}}<section class="container" data-type="{{container.type}}">
<h2>{{container.name}}</h2>
{{#each container.articles}}<article><h3>{{title}}</h3><p>{{summary}}</p></article>
{{/each}}</section>
{{/if}}</main>
</body>
</html>
`,
  { strict: false },
);

interface PageModel extends SPARoute {
  title: string;
  description: string | undefined;
}

/** The route's page (and container) as a complete HTML document. */
export function renderPage(route: SPARoute): string {
  const meta = route.page?.metaInfo ?? {};
  const title =
    typeof meta.title === 'string' ? meta.title : (route.page?.pageUrl ?? (route.status === 404 ? 'Not found' : ''));
  const description = typeof meta.description === 'string' ? meta.description : undefined;
  return template({ ...route, title, description });
}
