// The subscription request is shared with the dashboard: it lives in lib/subscription.
export {
  SUBSCRIPTION_KEY,
  getSubscription,
  subscriptionQueryOptions,
  useSubscription,
  type SubscriptionView,
} from '@/lib/subscription'
