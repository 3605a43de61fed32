import { zodResolver } from '@hookform/resolvers/zod'
import { useEffect, useId, useState } from 'react'
import { useForm, useWatch } from 'react-hook-form'
import { Link, useSearchParams } from 'react-router'
import { Alert } from '@/components/ui/Alert'
import { IconCheck } from '@/components/ui/icons'
import { Spinner } from '@/components/ui/Spinner'
import { useAuth } from '@/hooks/useAuth'
import { ApiError, errorMessage } from '@/lib/api'
import { toast } from '@/lib/toast'
import { useSendContact } from '../api/sendContact'
import {
  CONTACT_TOPICS,
  contactSchema,
  EMAIL_MAX,
  MESSAGE_MAX,
  NAME_MAX,
  topicFromQuery,
  type ContactPayload,
  type ContactValues,
} from '../schemas'
import styles from '../support.module.css'

export const CONTACT_SENT_MESSAGE = 'Thank you! Your message has been sent.'

function FieldError({ id, testId, message }: { id: string; testId: string; message?: string }) {
  if (!message) return null
  return (
    <p id={id} className="field-error" data-testid={testId}>
      {message}
    </p>
  )
}

/** /contact: name, email, topic (?topic=appointment preselects it) and message, to support. */
export function ContactPage() {
  const id = useId()
  const { user } = useAuth()
  const [params] = useSearchParams()
  const queryTopic = topicFromQuery(params.get('topic'))
  const send = useSendContact()
  const [sentTo, setSentTo] = useState<string | null>(null)
  const [serverError, setServerError] = useState<string | null>(null)

  const {
    register,
    handleSubmit,
    reset,
    setValue,
    getValues,
    clearErrors,
    control,
    formState: { errors },
  } = useForm<ContactValues, unknown, ContactPayload>({
    resolver: zodResolver(contactSchema),
    defaultValues: { name: user?.userName ?? '', email: user?.userEmail ?? '', topic: queryTopic, message: '' },
    reValidateMode: 'onSubmit',
  })

  // A link to ?topic=… (the sidebar's Book An Appointment) while the page is open picks it too.
  useEffect(() => setValue('topic', queryTopic), [queryTopic, setValue])

  // Logging in while the form is open fills what is still empty.
  useEffect(() => {
    if (!user) return
    if (!getValues('name').trim()) setValue('name', user.userName)
    if (!getValues('email').trim()) setValue('email', user.userEmail)
  }, [user, getValues, setValue])

  const message = useWatch({ control, name: 'message' }) ?? ''
  const field = (name: keyof ContactValues) =>
    register(name, {
      onChange: () => {
        clearErrors(name)
        setServerError(null)
      },
    })

  const submit = handleSubmit(async (values) => {
    setServerError(null)
    try {
      await send.mutateAsync(values)
      toast.success(CONTACT_SENT_MESSAGE)
      setSentTo(values.email)
      reset({ ...values, message: '' })
    } catch (err) {
      // The server's message as it is: a 429 says how long to wait, a 422 names the field.
      setServerError(err instanceof ApiError ? err.message : errorMessage(err))
    }
  })

  const invalid = (name: keyof ContactValues) => (errors[name] ? ' input--invalid' : '')
  const describedBy = (name: keyof ContactValues) => (errors[name] ? `${id}-${name}` : undefined)

  return (
    <div className="page">
      <header className="page-header">
        <h1>Contact Us</h1>
        <p className="page-header__sub">
          Questions, problems, or a call with our team: write to us and we answer by email. Many answers are already in{' '}
          <Link to="/help">Help &amp; Support</Link>.
        </p>
      </header>

      {sentTo ? (
        <section className={`card ${styles.contactCard} ${styles.contactSent}`} data-testid="contact-success" role="status">
          <span className={styles.contactSentIcon} aria-hidden="true">
            <IconCheck />
          </span>
          <h2 className="card__title">{CONTACT_SENT_MESSAGE}</h2>
          <p className="muted">
            We will answer at <strong>{sentTo}</strong>.
          </p>
          <button type="button" className="btn btn--secondary" onClick={() => setSentTo(null)}>
            Send another message
          </button>
        </section>
      ) : (
        <form className={`card ${styles.contactCard} ${styles.contactForm}`} onSubmit={submit} noValidate data-testid="contact-form">
          <div className={styles.contactRow}>
            <div className="field">
              <label htmlFor={`${id}-name-input`}>Name</label>
              <input
                id={`${id}-name-input`}
                className={`input${invalid('name')}`}
                type="text"
                autoComplete="name"
                maxLength={NAME_MAX}
                {...field('name')}
                aria-invalid={errors.name ? true : undefined}
                aria-describedby={describedBy('name')}
                data-testid="contact-name"
              />
              <FieldError id={`${id}-name`} testId="contact-name-error" message={errors.name?.message} />
            </div>
            <div className="field">
              <label htmlFor={`${id}-email-input`}>Email</label>
              <input
                id={`${id}-email-input`}
                className={`input${invalid('email')}`}
                type="email"
                autoComplete="email"
                maxLength={EMAIL_MAX}
                {...field('email')}
                aria-invalid={errors.email ? true : undefined}
                aria-describedby={describedBy('email')}
                data-testid="contact-email"
              />
              <FieldError id={`${id}-email`} testId="contact-email-error" message={errors.email?.message} />
            </div>
          </div>
          <div className="field">
            <label htmlFor={`${id}-topic-input`}>Topic</label>
            <select
              id={`${id}-topic-input`}
              className={`input ${styles.contactSelect}${invalid('topic')}`}
              {...field('topic')}
              aria-invalid={errors.topic ? true : undefined}
              aria-describedby={describedBy('topic')}
              data-testid="contact-topic"
            >
              {CONTACT_TOPICS.map((t) => (
                <option key={t.value} value={t.value}>
                  {t.label}
                </option>
              ))}
            </select>
            <FieldError id={`${id}-topic`} testId="contact-topic-error" message={errors.topic?.message} />
          </div>
          <div className="field">
            <div className="field__label-row">
              <label htmlFor={`${id}-message-input`}>Message</label>
              <span className={`${styles.contactCount}${message.length > MESSAGE_MAX ? ` ${styles.contactCountOver}` : ''}`}>
                {message.length} / {MESSAGE_MAX}
              </span>
            </div>
            <textarea
              id={`${id}-message-input`}
              className={`input ${styles.contactMessage}${invalid('message')}`}
              rows={7}
              {...field('message')}
              aria-invalid={errors.message ? true : undefined}
              aria-describedby={describedBy('message')}
              data-testid="contact-message"
            />
            <FieldError id={`${id}-message`} testId="contact-message-error" message={errors.message?.message} />
          </div>
          {serverError && (
            <Alert tone="error" title="Your message was not sent." testId="contact-server-error">
              {serverError}
            </Alert>
          )}
          <div className={styles.contactActions}>
            <button type="submit" className="btn btn--primary" disabled={send.isPending} data-testid="contact-submit">
              {send.isPending && <Spinner label="Sending" />}
              Send message
            </button>
          </div>
        </form>
      )}
    </div>
  )
}
