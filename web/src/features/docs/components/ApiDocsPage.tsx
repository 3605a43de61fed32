import { Component, lazy, Suspense, type ReactNode } from 'react'
import { Link } from 'react-router'
import { LoadingBlock } from '@/components/ui/Spinner'
import {
  cliExample,
  curlExample,
  provenanceExample,
  pythonExample,
  webhookBodyExample,
  webhookCurlExample,
  webhookPythonExample,
} from '../examples'
import styles from '../docs.module.css'

// Redoc and the OpenAPI document load only when this page opens: the main bundle stays as it was.
const ApiReference = lazy(() => import('./ApiReference'))

function currentOrigin(): string {
  return typeof window !== 'undefined' ? window.location.origin : 'https://your-metamodel-site'
}

function CodeBlock({ label, code, testId }: { label: string; code: string; testId?: string }) {
  return (
    <pre className={styles.code} tabIndex={0} aria-label={label} data-testid={testId}>
      <code>{code}</code>
    </pre>
  )
}

/** Keeps the quickstart on screen if the reference's chunk fails to load or render. */
class ReferenceBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false }

  static getDerivedStateFromError() {
    return { failed: true }
  }

  override render() {
    if (this.state.failed) {
      return (
        <p className={styles.note} role="alert">
          The reference could not be loaded. Reload the page to try again.
        </p>
      )
    }
    return this.props.children
  }
}

/** /docs/api: the public API for shops' programs, a quickstart and the reference. */
export function ApiDocsPage() {
  const origin = currentOrigin()

  return (
    <div className={`page ${styles.page}`} data-testid="api-docs">
      <header className="page-header">
        <h1>API documentation</h1>
        <p className="page-header__sub">
          Run generations from your own programs: upload photos, start generations, fetch the results.
        </p>
      </header>

      <nav className={styles.toc} aria-label="On this page">
        <a href={'#quickstart'}>Quickstart</a>
        <a href={'#cli'}>The metamodel command</a>
        <a href={'#test-mode'}>Test mode</a>
        <a href={'#content-credentials'}>Content Credentials</a>
        <a href={'#webhooks'}>Webhooks</a>
        <a href={'#errors-and-limits'}>Errors and limits</a>
        <a href={'#reference'}>Reference</a>
      </nav>

      <section className={`card ${styles.section}`} aria-labelledby="quickstart">
        <h2 id="quickstart" className="card__title">
          Quickstart
        </h2>
        <ol className={styles.steps}>
          <li>
            Create a key in <Link to="/user-setting">User Setting → API keys</Link>. It is shown once: store it
            somewhere safe. Send it as <code>Authorization: Bearer mm_live_...</code>; it acts for your account.
          </li>
          <li>
            Upload each photo to <code>POST /api/v1/uploads</code> (a multipart <code>file</code>). The answer's{' '}
            <code>key</code> goes in a generation's <code>inputs</code>.
          </li>
          <li>
            Start a generation with <code>POST /api/v1/generations</code>: <code>service</code> (
            <code>burstreplace</code> or <code>bodySwap</code>), <code>inputs</code>, <code>backgroundId</code>,{' '}
            <code>modelId</code> and optional <code>metadata</code>, given back as you sent it. Send an{' '}
            <code>Idempotency-Key</code> header: a repeated request with the same key returns the first generation and
            is charged once.
          </li>
          <li>
            Ask <code>GET /api/v1/generations/{'{id}'}</code> until its <code>status</code> is <code>completed</code>{' '}
            (or <code>failed</code>, with the reasons), then download each image's <code>outputs[0].url</code>.
          </li>
        </ol>
        <p className={styles.note}>Answers wrap their payload in <code>data</code>.</p>
        <h3 className={styles.subTitle}>curl</h3>
        <CodeBlock label="curl example" code={curlExample(origin)} testId="api-docs-curl" />
        <h3 className={styles.subTitle}>Python (httpx)</h3>
        <CodeBlock label="Python example" code={pythonExample(origin)} testId="api-docs-python" />
      </section>

      <section className={`card ${styles.section}`} aria-labelledby="cli">
        <h2 id="cli" className="card__title">
          The metamodel command
        </h2>
        <p>
          For folders of photos, the <code>metamodel</code> command uploads each photo, starts one generation per photo
          and downloads each result to <code>results/&lt;photo name&gt;</code>. It needs <code>METAMODEL_API_KEY</code>{' '}
          (and <code>METAMODEL_API_URL</code> or <code>--api</code> for this site), stays within your key's rate limit,
          and carries on where it stopped when run again: nothing is submitted or downloaded twice, and a resubmitted
          photo is charged once. It exits 0 when every photo succeeded, 1 with a table of failed photos and reasons.
        </p>
        <CodeBlock label="metamodel command example" code={cliExample(origin)} testId="api-docs-cli" />
      </section>

      <section className={`card ${styles.section}`} aria-labelledby="test-mode">
        <h2 id="test-mode" className="card__title">
          Test mode
        </h2>
        <p>
          A key created with the “Test key” box starts with <code>mm_test_</code>. It runs the same pipeline for free:
          no credits are held or charged, its results carry a visible “TEST” watermark, and its generations have{' '}
          <code>"livemode": false</code>. Test and live are kept apart: test keys see only test generations, live keys
          and the web app never see them (nor are they in My Images or your usage). Webhook endpoints have a mode
          too: an endpoint added with a test key is a test endpoint (<code>"livemode": false</code>) and receives only
          test events; endpoints added with a live key or in the web app receive only live ones. A key sees, changes and
          resends only the endpoints of its own mode.
        </p>
      </section>

      <section className={`card ${styles.section}`} aria-labelledby="content-credentials" data-testid="api-docs-credentials">
        <h2 id="content-credentials" className="card__title">
          Content Credentials
        </h2>
        <p>
          Every image MetaModel makes carries a signed C2PA manifest (the open standard behind Content Credentials) in
          every copy you download, from the web app, the API or the <code>metamodel</code> command, so marketplaces,
          ad platforms and anyone else can tell that it was made with AI and where it came from. The manifest states:
        </p>
        <ul className={styles.limits}>
          <li>
            the action: <code>c2pa.created</code> for a model swap, <code>c2pa.edited</code> for a background replace,
            with the IPTC digital source type <code>trainedAlgorithmicMedia</code> or{' '}
            <code>compositeWithTrainedAlgorithmicMedia</code> (also written in the file's XMP);
          </li>
          <li>
            its ingredients, by reference only: your uploaded photo by its SHA-256 (never the photo itself), the digital
            model and the background by their catalog ids, and for a re-render the image it was made from;
          </li>
          <li>
            the generation and image ids, the engine that made it, whether it is a test-mode image, and MetaModel as the
            claim generator, with its version.
          </li>
        </ul>
        <p>
          The API returns the manifest's summary with each image as <code>contentCredentials</code> (
          <code>action</code>, <code>digitalSourceType</code>, <code>ingredients</code>, <code>generationId</code>,{' '}
          <code>taskId</code>, <code>testMode</code>, <code>signer</code>, <code>issuer</code>, <code>signedAt</code>
          …); it is <code>null</code> for images made before signing began.
        </p>
        <h3 className={styles.subTitle}>Verifying a downloaded image</h3>
        <p>
          Any C2PA reader checks the file: <code>c2patool image.jpg</code> from{' '}
          <a href="https://github.com/contentauth/c2pa-rs">github.com/contentauth/c2pa-rs</a>, the Content Credentials website's verify
          tool at <a href="https://contentcredentials.org/verify">contentcredentials.org/verify</a>, or our own{' '}
          <Link to="/verify">Check an image</Link> page. Programs send the file to <code>POST /api/v1/provenance</code>{' '}
          (no key needed): the answer's <code>verdict</code> is <code>verified</code> (ours, unchanged),{' '}
          <code>altered</code> (ours, but the file changed since), <code>not_ours</code>, <code>invalid</code> or{' '}
          <code>none</code>, with a <code>message</code> and, when the credentials are ours, the generation that made
          it.
        </p>
        <CodeBlock label="Content Credentials check example" code={provenanceExample(origin)} testId="api-docs-provenance" />
        <p className={styles.note}>
          The credentials live in the file: re-saving it in an editor, cropping, resizing, or a screenshot removes them
          (the check then answers <code>none</code>). Publish the file as you downloaded it.
        </p>
      </section>

      <section className={`card ${styles.section}`} aria-labelledby="webhooks" data-testid="api-docs-webhooks">
        <h2 id="webhooks" className="card__title">
          Webhooks
        </h2>
        <p>
          Instead of polling, MetaModel can send a signed <code>POST</code> to your server when something happens. Add
          an endpoint in <Link to="/user-setting">User Setting → Webhooks</Link>, or with your key at{' '}
          <code>POST /api/v1/webhooks</code>: its <code>url</code>, the <code>events</code> it wants and an optional{' '}
          <code>description</code>. The answer carries the endpoint's signing secret (<code>whsec_...</code>), shown
          once: store it to verify what you receive. <code>GET /api/v1/webhooks/{'{id}'}/deliveries</code> lists what
          was sent and how your server answered, and a finished delivery can be sent again (
          <code>POST /api/v1/webhooks/{'{id}'}/deliveries/{'{deliveryId}'}/resend</code>).
        </p>
        <CodeBlock label="Webhook endpoint curl example" code={webhookCurlExample(origin)} testId="api-docs-webhook-curl" />
        <h3 className={styles.subTitle}>Events</h3>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Sent when</th>
                <th scope="col">
                  <code>data</code>
                </th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>
                  <code>generation.completed</code>
                </td>
                <td>A generation finished.</td>
                <td>The generation.</td>
              </tr>
              <tr>
                <td>
                  <code>generation.failed</code>
                </td>
                <td>A generation failed (its images' errors say why).</td>
                <td>The generation.</td>
              </tr>
              <tr>
                <td>
                  <code>task.completed</code>
                </td>
                <td>One image of a generation is ready.</td>
                <td>
                  <code>{'{"imageId": "...", "generation": {...}}'}</code>
                </td>
              </tr>
            </tbody>
          </table>
        </div>
        <h3 className={styles.subTitle}>The body</h3>
        <p>
          Every body is <code>{'{"type": "...", "timestamp": "...", "data": {...}}'}</code>. For{' '}
          <code>generation.*</code>, <code>data</code> is the generation: <code>id</code>, <code>object</code> (
          <code>"generation"</code>), <code>service</code>, <code>status</code>, <code>livemode</code>,{' '}
          <code>metadata</code>, <code>images</code> (each <code>id</code>, <code>status</code>, <code>error</code>),{' '}
          <code>error</code>, <code>createdAt</code> and <code>completedAt</code>. Events carry no image URLs: fetch{' '}
          <code>GET /api/v1/generations/{'{id}'}</code> for fresh signed ones.
        </p>
        <CodeBlock label="Webhook body example" code={webhookBodyExample} testId="api-docs-webhook-body" />
        <h3 className={styles.subTitle}>Verifying the signature</h3>
        <p>
          Requests are signed per the Standard Webhooks specification, with the headers <code>webhook-id</code>,{' '}
          <code>webhook-timestamp</code> and <code>webhook-signature</code>. Verify them with the{' '}
          <code>standardwebhooks</code> library and the endpoint's secret before trusting the body:{' '}
          <code>Webhook(secret).verify(body, headers)</code>, with the raw body exactly as received.
        </p>
        <CodeBlock label="Webhook verification in Python" code={webhookPythonExample(origin)} testId="api-docs-webhook-python" />
        <h3 className={styles.subTitle}>Retries</h3>
        <ul className={styles.limits}>
          <li>
            A delivery succeeds when your server answers 2xx within 10 seconds; anything else is retried with exponential
            backoff for up to 3 days.
          </li>
          <li>
            Every attempt (and a resend) carries the same <code>webhook-id</code>: remember the ids you handled and drop
            duplicates.
          </li>
          <li>
            An endpoint that has failed for 3 days is disabled and its owner is mailed; enable it again in User Setting →
            Webhooks (or <code>POST /api/v1/webhooks/{'{id}'}/enable</code>) once it is fixed.
          </li>
          <li>
            Only public addresses are accepted: URLs pointing at private, loopback or link-local addresses are refused.
          </li>
        </ul>
      </section>

      <section className={`card ${styles.section}`} aria-labelledby="errors-and-limits">
        <h2 id="errors-and-limits" className="card__title">
          Errors and limits
        </h2>
        <p>
          Errors are JSON: <code>{'{"message": "..."}'}</code>, a sentence you can show or log.
        </p>
        <div className={styles.tableWrap}>
          <table className={styles.table}>
            <thead>
              <tr>
                <th scope="col">Status</th>
                <th scope="col">Meaning</th>
              </tr>
            </thead>
            <tbody>
              <tr>
                <td>401</td>
                <td>No key, an unknown or revoked key, or a key used outside the public routes.</td>
              </tr>
              <tr>
                <td>402</td>
                <td>Not enough credits for the generation.</td>
              </tr>
              <tr>
                <td>404</td>
                <td>No such generation or upload for this key (another account's, or the other mode's).</td>
              </tr>
              <tr>
                <td>422</td>
                <td>The request is not valid: the message says which field and why.</td>
              </tr>
              <tr>
                <td>429</td>
                <td>
                  Too many requests: wait the <code>Retry-After</code> seconds, then send it again.
                </td>
              </tr>
              <tr>
                <td>503</td>
                <td>Generations cannot start right now: try again shortly.</td>
              </tr>
            </tbody>
          </table>
        </div>
        <ul className={styles.limits}>
          <li>
            60 requests a minute per account (the default), all its keys and sessions together; at most 20 new keys an
            hour. Every answer carries <code>RateLimit-Limit</code>,{' '}
            <code>RateLimit-Remaining</code> and <code>RateLimit-Reset</code>; the request beyond the limit answers 429
            with <code>Retry-After</code>.
          </li>
          <li>At most 20 inputs per generation.</li>
          <li>
            <code>metadata</code>: at most 20 keys, keys of 1 to 40 characters, string values of at most 500 characters.
          </li>
          <li>
            <code>GET /api/v1/generations</code> pages newest first: <code>limit</code> (at most 100) at a time; pass
            the answer's <code>nextCursor</code> as <code>starting_after</code> for the next page.
          </li>
        </ul>
        <p className={styles.note}>
          Rather than asking again and again, let <a href="#webhooks">webhooks</a> tell you when a generation finishes.
        </p>
      </section>

      <section className={styles.reference} aria-labelledby="reference">
        <h2 id="reference" className={styles.referenceTitle}>
          Reference
        </h2>
        <ReferenceBoundary>
          <Suspense fallback={<LoadingBlock />}>
            <ApiReference origin={origin} />
          </Suspense>
        </ReferenceBoundary>
      </section>
    </div>
  )
}
