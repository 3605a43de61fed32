import { Fragment, useId, useState, type FormEvent } from 'react'
import { Link } from 'react-router'
import { Spinner } from '@/components/ui/Spinner'
import { errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import type { CreatedWebhookEndpoint, WebhookDelivery, WebhookEndpoint, WebhookEvent } from '@/types/api'
import {
  useCreateWebhookEndpoint,
  useDeleteWebhookEndpoint,
  useEnableWebhookEndpoint,
  useResendWebhookDelivery,
  useWebhookDeliveries,
  useWebhookEndpoints,
} from '../api/webhooks'
import { formatDate } from '../dates'
import keyStyles from './ApiKeysSection.module.css'
import { ConfirmAction } from './ConfirmAction'
import { QueryList } from './QueryList'
import { SecretOnce } from './SecretOnce'
import styles from './WebhooksSection.module.css'

// The server's limits (NewWebhookBody).
const URL_MAX = 2048
const DESCRIPTION_MAX = 200

/** The events an endpoint can subscribe to, and what each means. */
const WEBHOOK_EVENTS: ReadonlyArray<{ event: WebhookEvent; hint: string }> = [
  { event: 'generation.completed', hint: 'a generation finished' },
  { event: 'generation.failed', hint: 'a generation failed' },
  { event: 'task.completed', hint: 'one image of a generation is ready' },
]

function formatTime(iso: string): string {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  return date.toLocaleString('en-US', {
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
}

/** An http(s) URL, else null. */
function validUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' || url.protocol === 'http:'
  } catch {
    return false
  }
}

/** The payload, indented when it is JSON. */
function prettyPayload(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload), null, 2)
  } catch {
    return payload
  }
}

function StatusBadge({ status }: { status: WebhookDelivery['status'] }) {
  const label = status === 'succeeded' ? 'Succeeded' : status === 'failed' ? 'Failed' : 'Pending'
  return (
    <span className={`${styles.badge} ${styles[`badge_${status}`] ?? ''}`} data-testid="webhook-delivery-status">
      {label}
    </span>
  )
}

function DeliveryRow({
  delivery,
  resend,
  resending,
}: {
  delivery: WebhookDelivery
  resend: (deliveryId: string) => void
  resending: boolean
}) {
  const id = useId()
  const [showPayload, setShowPayload] = useState(false)
  const finished = delivery.status !== 'pending'
  const when = delivery.lastAttemptAt ?? delivery.createdAt

  return (
    <Fragment>
      <tr
        className={styles.deliveryRow}
        data-testid="webhook-delivery-row"
        data-delivery-id={delivery.id}
        data-event-type={delivery.eventType}
        data-status={delivery.status}
        data-status-code={delivery.lastStatusCode ?? ''}
      >
        <td data-label="Event">
          <code>{delivery.eventType}</code>
        </td>
        <td data-label="Status">
          <StatusBadge status={delivery.status} />
          {delivery.lastError && <span className={styles.deliveryError}>{delivery.lastError}</span>}
        </td>
        <td data-label="HTTP" data-testid="webhook-delivery-code">
          {delivery.lastStatusCode ?? '—'}
        </td>
        <td data-label="Duration">{delivery.lastDurationMs === null ? '—' : `${delivery.lastDurationMs} ms`}</td>
        <td data-label="Attempts">{delivery.attempts}</td>
        <td data-label="Time">
          <time dateTime={when}>{formatTime(when)}</time>
        </td>
        <td data-label="Actions">
          <span className={keyStyles.row}>
            <button
              type="button"
              className="btn btn--ghost btn--small"
              aria-expanded={showPayload}
              aria-controls={`${id}-payload`}
              onClick={() => setShowPayload((open) => !open)}
              data-testid="webhook-delivery-payload-toggle"
            >
              {showPayload ? 'Hide payload' : 'Payload'}
            </button>
            {finished && (
              <button
                type="button"
                className="btn btn--ghost btn--small"
                onClick={() => resend(delivery.id)}
                disabled={resending}
                aria-label={`Resend ${delivery.eventType} ${delivery.id}`}
                data-testid="webhook-delivery-resend"
              >
                Resend
              </button>
            )}
          </span>
        </td>
      </tr>
      {showPayload && (
        <tr className={styles.payloadRow}>
          <td colSpan={7} id={`${id}-payload`}>
            <p className={styles.payloadId}>
              Message id <code>{delivery.id}</code>
            </p>
            <pre className={styles.payload} tabIndex={0} aria-label={`Payload of ${delivery.id}`} data-testid="webhook-delivery-payload">
              {prettyPayload(delivery.payload)}
            </pre>
          </td>
        </tr>
      )}
    </Fragment>
  )
}

/** An endpoint's delivery log: newest first, with Refresh and, per finished delivery, Resend. */
function DeliveryLog({ endpoint, userEmail, id }: { endpoint: WebhookEndpoint; userEmail: string; id: string }) {
  const deliveries = useWebhookDeliveries(userEmail, endpoint.id, true)
  const resend = useResendWebhookDelivery(userEmail, endpoint.id)

  const doResend = async (deliveryId: string) => {
    try {
      await resend.mutateAsync(deliveryId)
      toast.success('The delivery is being sent again.')
    } catch (err) {
      toast.error(errorMessage(err))
    }
  }

  return (
    <div id={id} className={styles.log} role="region" aria-label={`Deliveries to ${endpoint.url}`} data-testid="webhook-deliveries">
      <div className={styles.logHeader}>
        <span className={styles.logTitle}>Deliveries</span>
        <button
          type="button"
          className="btn btn--ghost btn--small"
          onClick={() => void deliveries.refetch()}
          disabled={deliveries.isFetching}
          data-testid="webhook-deliveries-refresh"
        >
          {deliveries.isFetching && <Spinner label="Refreshing" />}
          Refresh
        </button>
      </div>
      <QueryList
        query={deliveries}
        loadingLabel="Loading the deliveries…"
        errorTitle="The deliveries could not be loaded."
        emptyText="Nothing has been sent to this endpoint yet."
        emptyTestId="webhook-deliveries-empty"
      >
        {(items) => (
          <div className={styles.tableWrap}>
            <table className={styles.table} data-testid="webhook-deliveries-table">
              <thead>
                <tr>
                  <th scope="col">Event</th>
                  <th scope="col">Status</th>
                  <th scope="col">HTTP</th>
                  <th scope="col">Duration</th>
                  <th scope="col">Attempts</th>
                  <th scope="col">Time</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {items.map((delivery) => (
                  <DeliveryRow
                    key={delivery.id}
                    delivery={delivery}
                    resend={(deliveryId) => void doResend(deliveryId)}
                    resending={resend.isPending}
                  />
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryList>
    </div>
  )
}

function EndpointRow({ endpoint, userEmail }: { endpoint: WebhookEndpoint; userEmail: string }) {
  const id = useId()
  const [logOpen, setLogOpen] = useState(false)
  const remove = useDeleteWebhookEndpoint(userEmail)
  const enable = useEnableWebhookEndpoint(userEmail)
  const enabled = endpoint.status === 'enabled'

  const doEnable = async () => {
    try {
      await enable.mutateAsync(endpoint.id)
      toast.success(`The endpoint ${endpoint.url} is enabled again.`)
    } catch (err) {
      toast.error(errorMessage(err))
    }
  }

  return (
    <li className={styles.endpoint} aria-labelledby={`${id}-url`} data-testid="webhook-row" data-endpoint-id={endpoint.id}>
      <div className={styles.endpointHead}>
        <div className={keyStyles.keyInfo}>
          <span className={styles.endpointUrl} id={`${id}-url`} data-testid="webhook-url">
            {endpoint.url}
          </span>
          {endpoint.description && <span className={keyStyles.keyMeta}>{endpoint.description}</span>}
          <span className={styles.eventList} aria-label="Events">
            {endpoint.events.map((event) => (
              <code key={event} className={styles.event}>
                {event}
              </code>
            ))}
          </span>
          <span className={keyStyles.keyMeta}>
            <span
              className={`${styles.badge} ${enabled ? styles.badge_succeeded : styles.badge_failed}`}
              data-testid="webhook-status"
            >
              {enabled ? 'Enabled' : 'Disabled'}
            </span>{' '}
            {!enabled && endpoint.disabledReason && (
              <span className={styles.reason} data-testid="webhook-disabled-reason">
                {endpoint.disabledReason} ·{' '}
              </span>
            )}
            {enabled && endpoint.failingSince && <span className={styles.reason}>Failing since {formatDate(endpoint.failingSince)} · </span>}
            Created {formatDate(endpoint.createdAt)}
          </span>
        </div>
        <div className={keyStyles.row}>
          <button
            type="button"
            className="btn btn--ghost btn--small"
            aria-expanded={logOpen}
            aria-controls={`${id}-log`}
            onClick={() => setLogOpen((open) => !open)}
            data-testid="webhook-deliveries-toggle"
          >
            {logOpen ? 'Hide deliveries' : 'Deliveries'}
          </button>
          {!enabled && (
            <button
              type="button"
              className="btn btn--primary btn--small"
              onClick={() => void doEnable()}
              disabled={enable.isPending}
              data-testid="webhook-enable"
            >
              {enable.isPending && <Spinner label="Enabling" />}
              Enable
            </button>
          )}
          <ConfirmAction
            action="Delete"
            question="Delete this endpoint? It will receive nothing more."
            confirm="Yes, delete"
            pendingLabel="Deleting"
            groupLabel={`Confirm deleting ${endpoint.url}`}
            pending={remove.isPending}
            testId="webhook-delete"
            onConfirm={async () => {
              await remove.mutateAsync(endpoint.id)
              toast.success(`The endpoint ${endpoint.url} has been deleted.`)
            }}
          />
        </div>
      </div>
      {logOpen && <DeliveryLog endpoint={endpoint} userEmail={userEmail} id={`${id}-log`} />}
    </li>
  )
}

/** User Setting's webhooks: the endpoints, adding one (its signing secret shown once), deleting,
 *  enabling a disabled one, and each endpoint's delivery log. */
export function WebhooksSection({ userEmail }: { userEmail: string }) {
  const id = useId()
  const endpoints = useWebhookEndpoints(userEmail)
  const create = useCreateWebhookEndpoint(userEmail)
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [events, setEvents] = useState<WebhookEvent[]>(WEBHOOK_EVENTS.map(({ event }) => event))
  const [urlError, setUrlError] = useState<string | null>(null)
  const [created, setCreated] = useState<CreatedWebhookEndpoint | null>(null)
  const trimmed = url.trim()

  const toggleEvent = (event: WebhookEvent, checked: boolean) => {
    setEvents((current) =>
      checked
        ? WEBHOOK_EVENTS.map((e) => e.event).filter((e) => e === event || current.includes(e))
        : current.filter((e) => e !== event),
    )
  }

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    if (!trimmed || events.length === 0 || create.isPending) return
    if (!validUrl(trimmed)) {
      setUrlError('Enter the full address, starting with https://')
      return
    }
    setUrlError(null)
    try {
      const endpoint = await create.mutateAsync({ url: trimmed, events, description: description.trim() })
      setCreated(endpoint)
      setUrl('')
      setDescription('')
    } catch (err) {
      toast.error(errorMessage(err))
    }
  }

  return (
    <section className={`card ${keyStyles.section}`} aria-labelledby={`${id}-title`} data-testid="webhooks">
      <h2 id={`${id}-title`} className="card__title">
        Webhooks
      </h2>
      <p className={keyStyles.docsLink}>
        Your server is told when a generation finishes: signed POST requests to the endpoints below.{' '}
        <Link to="/docs/api#webhooks" data-testid="webhooks-docs-link">
          How to verify them
        </Link>
      </p>
      {created && (
        <SecretOnce
          title={<>Signing secret of {created.url}</>}
          secret={created.secret}
          noun="secret"
          secretLabel="Signing secret"
          testIdPrefix="webhook"
          onDismiss={() => setCreated(null)}
        />
      )}
      <form className={styles.form} onSubmit={(event) => void submit(event)} noValidate aria-label="Add a webhook endpoint">
        <div className={`field ${styles.urlField}`}>
          <label htmlFor={`${id}-url`}>Endpoint URL</label>
          <input
            id={`${id}-url`}
            className="input"
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://shop.example.com/hooks/metamodel"
            maxLength={URL_MAX}
            value={url}
            onChange={(event) => {
              setUrl(event.target.value)
              setUrlError(null)
            }}
            aria-invalid={urlError ? true : undefined}
            aria-describedby={urlError ? `${id}-url-error` : undefined}
            data-testid="webhook-url-input"
          />
          {urlError && (
            <span id={`${id}-url-error`} className={styles.fieldError} role="alert">
              {urlError}
            </span>
          )}
        </div>
        <fieldset className={styles.events}>
          <legend className={styles.legend}>Events</legend>
          {WEBHOOK_EVENTS.map(({ event, hint }) => (
            <label key={event} className={styles.eventChoice}>
              <input
                type="checkbox"
                checked={events.includes(event)}
                onChange={(change) => toggleEvent(event, change.target.checked)}
                data-testid={`webhook-event-${event}`}
              />
              <code>{event}</code>
              <span className={styles.hint}>({hint})</span>
            </label>
          ))}
        </fieldset>
        <div className={`field ${styles.urlField}`}>
          <label htmlFor={`${id}-description`}>Description (optional)</label>
          <input
            id={`${id}-description`}
            className="input"
            type="text"
            autoComplete="off"
            maxLength={DESCRIPTION_MAX}
            value={description}
            onChange={(event) => setDescription(event.target.value)}
            data-testid="webhook-description-input"
          />
        </div>
        <div>
          <button
            type="submit"
            className="btn btn--primary"
            disabled={!trimmed || events.length === 0 || create.isPending}
            data-testid="webhook-create"
          >
            {create.isPending && <Spinner label="Adding" />}
            Add endpoint
          </button>
        </div>
      </form>
      <QueryList
        query={endpoints}
        loadingLabel="Loading your webhook endpoints…"
        errorTitle="Your webhook endpoints could not be loaded."
        emptyText="You have no webhook endpoints yet."
        emptyTestId="webhooks-empty"
      >
        {(items) => (
          <ul className={keyStyles.list} aria-label="Webhook endpoints" data-testid="webhooks-list">
            {items.map((endpoint) => (
              <EndpointRow key={endpoint.id} endpoint={endpoint} userEmail={userEmail} />
            ))}
          </ul>
        )}
      </QueryList>
    </section>
  )
}
