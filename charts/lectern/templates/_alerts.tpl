{{/*
The alert rules (a Prometheus rule file's `groups`), on the metrics the services export
(packages/http-kit): lectern_outbox_relay_oldest_pending_seconds (management),
lectern_event_consumer_lag_events and lectern_index_watermark_lag_events (indexer),
lectern_webhook_queue_oldest_pending_seconds (webhooks) and
lectern_http_request_duration_seconds (every API).
*/}}
{{- define "lectern.alertGroups" -}}
{{- $r := .Values.metrics.prometheusRule -}}
{{- /* The ServiceMonitor's targets: job is the Kubernetes Service's name (the metrics' own
`service` label becomes exported_service beside Prometheus' target label). */ -}}
{{- $sel := printf "namespace=%q, job=~%q" .Release.Namespace (printf "%s-.*" (include "lectern.fullname" .)) -}}
groups:
  - name: lectern
    rules:
      - alert: LecternOutboxRelayBehind
        expr: max(lectern_outbox_relay_oldest_pending_seconds{ {{- $sel -}} }) > {{ $r.relayOldestPendingSeconds }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: Committed change events wait to be relayed to Kafka
          description: The oldest committed change event has waited {{ "{{" }} $value | humanizeDuration {{ "}}" }} for the outbox relay (is Kafka reachable from Management?).
      - alert: LecternEventConsumerLag
        expr: max by (group) (lectern_event_consumer_lag_events{ {{- $sel -}} }) > {{ $r.consumerLagEvents }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: A consumer group falls behind the change-event topic
          description: Consumer group {{ "{{" }} $labels.group {{ "}}" }} has {{ "{{" }} $value {{ "}}" }} change events not handled yet.
      - alert: LecternIndexLag
        expr: max(lectern_index_watermark_lag_events{ {{- $sel -}} }) > {{ $r.indexLagEvents }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: The delivery index falls behind committed changes
          description: '{{ "{{" }} $value {{ "}}" }} committed change events are not in the delivery index yet: Delivery serves older content.'
      - alert: LecternWebhookQueueOld
        expr: max(lectern_webhook_queue_oldest_pending_seconds{ {{- $sel -}} }) > {{ $r.webhookQueueOldestSeconds }}
        for: {{ $r.for }}
        labels: { severity: warning }
        annotations:
          summary: Webhook notifications wait to be delivered
          description: The oldest pending webhook notification has waited {{ "{{" }} $value | humanizeDuration {{ "}}" }}.
      - alert: LecternHighErrorRate
        expr: |-
          sum by (job) (rate(lectern_http_request_duration_seconds_count{ {{- $sel -}}, status=~"5.."}[5m]))
            / sum by (job) (rate(lectern_http_request_duration_seconds_count{ {{- $sel -}} }[5m]))
            > {{ $r.errorRatio }}
        for: {{ $r.for }}
        labels: { severity: critical }
        annotations:
          summary: An API answers with 5xx
          description: '{{ "{{" }} $value | humanizePercentage {{ "}}" }} of the {{ "{{" }} $labels.job {{ "}}" }} answers are 5xx.'
{{- end -}}
