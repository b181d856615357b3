/**
 * The index of the demo crawl (fixtures/demo, its Crawler.conf: seeds www and docs, domain scope,
 * the accept and reject lists there, rel=nofollow obeyed) as fixtures/demo/README.md and SPEC §6
 * predict it, written by hand from the pages. URLs are written without the server's port; a test
 * adds it (`portLinks`). The 41 records: 25 on www, 12 on docs, 4 on the blog.
 */
export interface ExpectedRecord {
  readonly url: string;
  /** ORIGINAL-URL: the link as written in the first referring page; several where two pages race to refer first. */
  readonly original: readonly string[];
  readonly title: string;
  readonly encoding: string;
  readonly type: string;
  /** The file served (under fixtures/demo), whose mtime is the Last-Modified; null where the server sends none. */
  readonly file: string | null;
  readonly links: readonly (readonly [url: string, text: string])[];
}

const W = 'http://www.tarantula.test';
const D = 'http://docs.tarantula.test';
const B = 'http://blog.tarantula.test';

const WWW_NAV = [[`${W}/`, 'Home'], [`${W}/about.html`, 'About'], [`${D}/`, 'Documentation'], [`${B}/`, 'Blog']] as const;
const DOCS_NAV = [[`${D}/`, 'Documentation home'], [`${W}/`, 'Tarantula']] as const;
const BLOG_NAV = [[`${B}/`, 'Blog home'], [`${W}/about.html`, 'About Tarantula']] as const;

const HOME_LINKS = [
  [`${W}/about.html`, 'Tarantula logo About the project'],
  [`${W}/features.htm`, 'Features'],
  [`${W}/news`, 'News'],
  [`${D}/`, 'Documentation'],
  [`${D}/guide/`, 'user guide'],
  [`${B}/`, 'Tarantula blog'],
  [`${W}/intl/`, 'Pages in other languages'],
  [`${W}/files/tarantula-paper.pdf`, 'The design paper (PDF)'],
  [`${W}/files/changelog.txt`, 'Changelog'],
  [`${W}/images/logo.png`, 'Logo (PNG)'],
  [`${W}/base-href.html`, 'Reference shortcuts'],
  [`${W}/frames.html`, 'The framed tour'],
  [`${W}/map.html`, 'Clickable site map'],
  [`${W}/refresh.html`, 'Quick start'],
  [`${W}/links-nofollow.html`, 'Links and sponsors'],
  [`${W}/robots-noindex.html`, 'Release checklist'],
  [`${W}/robots-nofollow.html`, 'Link archive'],
  [`${W}/x-robots-noindex.html`, 'Print version'],
  [`${W}/moved`, 'Contributing'],
  [`${W}/no-such-page.html`, 'Mailing list archive'],
  [`${W}/private/secret.html`, 'Team area'],
] as const;

const html = (url: string, original: string | string[], title: string, file: string, links: readonly (readonly [string, string])[]): ExpectedRecord => ({
  url, original: typeof original === 'string' ? [original] : original, title, encoding: 'utf-8', type: 'html', file, links,
});
const intl = (page: string, title: string, encoding: string, about: string, others: string): ExpectedRecord => ({
  url: `${W}/intl/${page}`, original: [page], title, encoding, type: 'html', file: `www.tarantula.test/intl/${page}`,
  links: [[`${W}/about.html`, about], [`${W}/intl/`, others]],
});

export const DEMO_INDEX: readonly ExpectedRecord[] = [
  // www.tarantula.test
  html(`${W}/`, `${W}/`, 'Tarantula — a polite web crawler', 'www.tarantula.test/index.html', HOME_LINKS),
  html(`${W}/about.html`, '/about.html', 'About Tarantula', 'www.tarantula.test/about.html', WWW_NAV),
  html(`${W}/features.htm`, 'features.htm', 'Features — Tarantula', 'www.tarantula.test/features.htm', [...WWW_NAV, [`${W}/embed/status.html`, '']]),
  html(`${W}/embed/status.html`, '/embed/status.html', 'Crawler status', 'www.tarantula.test/embed/status.html', []),
  { ...html(`${W}/news`, 'news', 'News — Tarantula', 'www.tarantula.test/news', WWW_NAV), file: null },
  html(`${W}/intl/`, 'intl/', 'Tarantula in other languages', 'www.tarantula.test/intl/index.html', [
    [`${W}/intl/greek-meta.html`, 'Ελληνικά (windows-1253, declared in a meta tag)'],
    [`${W}/intl/greek-header.html`, 'Ελληνικά (ISO-8859-7, declared in the Content-Type header)'],
    [`${W}/intl/chinese-gbk.html`, '中文 (GBK)'],
    [`${W}/intl/japanese-sjis.html`, '日本語 (Shift_JIS)'],
    [`${W}/index.html`, 'Back to the home page'],
  ]),
  intl('greek-meta.html', 'Ταραντούλα: Ελληνικά (windows-1253)', 'windows-1253', 'Σχετικά με το έργο', 'Άλλες γλώσσες'),
  intl('greek-header.html', 'Ταραντούλα: Ελληνικά (ISO-8859-7)', 'iso-8859-7', 'Σχετικά με το έργο', 'Άλλες γλώσσες'),
  intl('chinese-gbk.html', '塔兰图拉网络爬虫简介', 'gbk', '关于本项目', '其他语言'),
  intl('japanese-sjis.html', 'タランチュラ・クローラーについて', 'shift_jis', 'このプロジェクトについて', 'ほかの言語'),
  // the home page's bytes again: a duplicate, still a page with the same links (SPEC §6 lists a page's links)
  html(`${W}/index.html`, '../index.html', 'Tarantula — a polite web crawler', 'www.tarantula.test/index.html', HOME_LINKS),
  { url: `${W}/files/tarantula-paper.pdf`, original: ['files/tarantula-paper.pdf'], title: '-', encoding: '-', type: 'pdf', file: 'www.tarantula.test/files/tarantula-paper.pdf', links: [] },
  { url: `${W}/files/changelog.txt`, original: ['files/changelog.txt'], title: '-', encoding: 'utf-8', type: 'txt', file: 'www.tarantula.test/files/changelog.txt', links: [] },
  { url: `${W}/images/logo.png`, original: ['images/logo.png'], title: '-', encoding: '-', type: 'png', file: 'www.tarantula.test/images/logo.png', links: [] },
  html(`${W}/base-href.html`, 'base-href.html', 'Reference shortcuts — Tarantula', 'www.tarantula.test/base-href.html', [
    [`${D}/reference/cli.html`, 'Command line'],
    [`${D}/reference/operators.html`, 'Operators'],
    [`${D}/guide/install.html`, 'Installing'],
    [`${D}/faq.html`, 'Frequently asked questions'],
  ]),
  // <noframes> holds raw text in the HTML standard's parser: its markup is not a link
  html(`${W}/frames.html`, 'frames.html', 'The framed tour — Tarantula', 'www.tarantula.test/frames.html', [[`${W}/frames/nav.html`, ''], [`${W}/frames/main.html`, '']]),
  html(`${W}/frames/nav.html`, 'frames/nav.html', 'Tour contents', 'www.tarantula.test/frames/nav.html', [
    [`${W}/frames/main.html`, 'Welcome'],
    [`${W}/features.htm`, 'Features'],
    [`${W}/about.html`, 'Leave the tour'],
  ]),
  html(`${W}/frames/main.html`, 'frames/main.html', 'Tour: welcome', 'www.tarantula.test/frames/main.html', []),
  html(`${W}/map.html`, 'map.html', 'Clickable site map — Tarantula', 'www.tarantula.test/map.html', [...WWW_NAV, [`${W}/features.htm`, 'Features']]),
  html(`${W}/refresh.html`, 'refresh.html', 'Quick start — Tarantula', 'www.tarantula.test/refresh.html', [[`${W}/landing.html`, '']]),
  html(`${W}/landing.html`, '/landing.html', 'Quick start guide — Tarantula', 'www.tarantula.test/landing.html', WWW_NAV),
  html(`${W}/links-nofollow.html`, 'links-nofollow.html', 'Links and sponsors — Tarantula', 'www.tarantula.test/links-nofollow.html', WWW_NAV),
  html(`${W}/noindex-child.html`, '/noindex-child.html', 'Testing notes — Tarantula', 'www.tarantula.test/noindex-child.html', []),
  html(`${W}/robots-nofollow.html`, 'robots-nofollow.html', 'Link archive — Tarantula', 'www.tarantula.test/robots-nofollow.html', []),
  html(`${W}/relocated.html`, 'moved', 'Contributing to Tarantula', 'www.tarantula.test/relocated.html', WWW_NAV),

  // docs.tarantula.test
  html(`${D}/`, `${D}/`, 'Tarantula documentation', 'docs.tarantula.test/index.html', [
    [`${D}/guide/`, 'User guide'],
    [`${D}/reference/`, 'Reference'],
    [`${D}/faq.html`, 'Frequently asked questions'],
    [`${W}/`, 'the Tarantula home page'],
  ]),
  // both seeds refer to the guide; whichever is parsed first gives the original
  html(`${D}/guide/`, ['guide/', 'http://DOCS.Tarantula.Test/guide/'], 'User guide — Tarantula docs', 'docs.tarantula.test/guide/index.html', [
    ...DOCS_NAV,
    [`${D}/guide/install.html`, 'Installing Tarantula'],
    [`${D}/guide/configuration.html`, 'Writing a Crawler.conf'],
    [`${D}/guide/advanced/`, 'Advanced topics'],
    [`${D}/reference`, 'reference'],
  ]),
  html(`${D}/guide/install.html`, ['install.html', '../guide/install.html'], 'Installing Tarantula — Tarantula docs', 'docs.tarantula.test/guide/install.html', [
    ...DOCS_NAV,
    [`${D}/guide/configuration.html`, 'write a configuration'],
  ]),
  html(`${D}/guide/configuration.html`, 'configuration.html', 'Writing a Crawler.conf — Tarantula docs', 'docs.tarantula.test/guide/configuration.html', [
    ...DOCS_NAV,
    [`${D}/reference/crawler-conf.html`, 'Crawler.conf reference'],
    [`${D}/guide/`, 'guide'],
  ]),
  html(`${D}/guide/advanced/`, 'advanced/', 'Advanced topics — Tarantula docs', 'docs.tarantula.test/guide/advanced/index.html', [
    ...DOCS_NAV,
    [`${D}/guide/advanced/politeness.html`, 'Politeness and crawl delays'],
    [`${D}/guide/advanced/pipelines.html`, 'Writing your own pipeline'],
    [`${D}/guide/`, 'user guide'],
  ]),
  html(`${D}/guide/advanced/politeness.html`, 'guide/advanced/politeness.html', 'Politeness and crawl delays — Tarantula docs', 'docs.tarantula.test/guide/advanced/politeness.html', [
    ...DOCS_NAV,
    [`${D}/reference/cli.html`, 'command line reference'],
    [`${D}/guide/install.html`, 'installation'],
  ]),
  html(`${D}/guide/advanced/pipelines.html`, 'pipelines.html', 'Writing your own pipeline — Tarantula docs', 'docs.tarantula.test/guide/advanced/pipelines.html', [
    ...DOCS_NAV,
    [`${D}/reference/operators.html`, 'operator reference'],
  ]),
  html(`${D}/reference/`, 'reference/', 'Reference — Tarantula docs', 'docs.tarantula.test/reference/index.html', [
    ...DOCS_NAV,
    [`${D}/reference/cli.html`, 'Command line'],
    [`${D}/reference/operators.html`, 'Operators'],
    [`${D}/reference/crawler-conf.html`, 'Crawler.conf keys'],
  ]),
  html(`${D}/reference/cli.html`, 'cli.html', 'Command line — Tarantula docs', 'docs.tarantula.test/reference/cli.html', DOCS_NAV),
  html(`${D}/reference/operators.html`, 'operators.html', 'Operators — Tarantula docs', 'docs.tarantula.test/reference/operators.html', DOCS_NAV),
  html(`${D}/reference/crawler-conf.html`, 'crawler-conf.html', 'Crawler.conf keys — Tarantula docs', 'docs.tarantula.test/reference/crawler-conf.html', DOCS_NAV),
  html(`${D}/faq.html`, 'faq.html', 'Frequently asked questions — Tarantula docs', 'docs.tarantula.test/faq.html', [
    ...DOCS_NAV,
    [`${D}/guide/advanced/politeness.html`, 'politeness and crawl delays'],
    [`${D}/drafts/roadmap.html`, 'roadmap'],
  ]),

  // blog.tarantula.test
  html(`${B}/`, `${B}/`, 'The Tarantula blog', 'blog.tarantula.test/index.html', [
    ...BLOG_NAV,
    [`${B}/2024/09/reading-greek.html`, 'Reading Greek, Chinese and Japanese pages'],
    [`${B}/2024/05/polite-crawling.html`, 'Polite crawling'],
    [`${B}/2024/03/hello-world.html`, 'Hello, world'],
  ]),
  html(`${B}/2024/09/reading-greek.html`, '2024/09/reading-greek.html', 'Reading Greek, Chinese and Japanese pages — The Tarantula blog', 'blog.tarantula.test/2024/09/reading-greek.html', [
    ...BLOG_NAV,
    [`${W}/intl/`, 'pages in other languages'],
  ]),
  html(`${B}/2024/05/polite-crawling.html`, '2024/05/polite-crawling.html', 'Polite crawling — The Tarantula blog', 'blog.tarantula.test/2024/05/polite-crawling.html', [
    ...BLOG_NAV,
    [`${D}/guide/advanced/politeness.html`, 'politeness guide'],
  ]),
  html(`${B}/2024/03/hello-world.html`, '2024/03/hello-world.html', 'Hello, world — The Tarantula blog', 'blog.tarantula.test/2024/03/hello-world.html', [
    ...BLOG_NAV,
    [`${B}/2024/05/polite-crawling.html`, 'polite crawling'],
  ]),
];
