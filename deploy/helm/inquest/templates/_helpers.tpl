{{/* Common names and labels. */}}
{{- define "inquest.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 50 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 50 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{- define "inquest.labels" -}}
app.kubernetes.io/part-of: inquest
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{/* "<fullname>-<service>" for a service name passed as .name in a dict with .root. */}}
{{- define "inquest.serviceName" -}}
{{- printf "%s-%s" (include "inquest.fullname" .root) .name | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "inquest.image" -}}
{{- printf "%s/%s:%s" .root.Values.image.repository .name (default .root.Chart.AppVersion .root.Values.image.tag) -}}
{{- end -}}

{{/* Secrets every service may read, by reference only (may render nothing). */}}
{{- define "inquest.secretEnv" -}}
{{- if .Values.vault.tokenSecret.name }}
- name: INQUEST_VAULT_TOKEN
  valueFrom:
    secretKeyRef: { name: {{ .Values.vault.tokenSecret.name | quote }}, key: {{ .Values.vault.tokenSecret.key | quote }} }
{{- end }}
{{- if .Values.qdrant.apiKeySecret.name }}
- name: INQUEST_QDRANT_API_KEY
  valueFrom:
    secretKeyRef: { name: {{ .Values.qdrant.apiKeySecret.name | quote }}, key: {{ .Values.qdrant.apiKeySecret.key | quote }} }
{{- end }}
{{- end -}}
