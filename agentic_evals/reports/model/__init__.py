"""The result model every layer reads and writes: the run report, ``agentic_evals.report.v2``.

``schemas/report.schema.json`` is generated from these models.
"""

from agentic_evals.reports.model.claims import (
    CapabilityReadiness,
    ClaimDeclaration,
    ClaimEvidence,
    ClaimReadiness,
    ExemptEvidence,
    IgnoredExemption,
    Independence,
    QualificationReport,
    Requalification,
    Threat,
)
from agentic_evals.reports.model.configuration import ConfigurationReport
from agentic_evals.reports.model.isolation import IsolationSummary, Leftover, TrialIsolation
from agentic_evals.reports.model.metrics import HallucinatedSuccess, Interval, Metrics, PassHatK
from agentic_evals.reports.model.outcomes import (
    CASE_OUTCOMES,
    READINESS,
    CaseOutcome,
    ClaimVerdict,
    ClassVerdict,
    Readiness,
    TrialOutcome,
)
from agentic_evals.reports.model.resume import ResumedFrom
from agentic_evals.reports.model.run import (
    REPORT_SCHEMA,
    CaseReport,
    FixtureCase,
    RepoInfo,
    Report,
    RunnerInfo,
    ShardInfo,
)
from agentic_evals.reports.model.trace import ArtifactWriter, FileTrace
from agentic_evals.reports.model.trial import (
    Problem,
    StreamStats,
    TrialReport,
    WorkspaceChangesReport,
)

__all__ = [
    "CASE_OUTCOMES",
    "READINESS",
    "REPORT_SCHEMA",
    "CapabilityReadiness",
    "CaseOutcome",
    "CaseReport",
    "ClaimDeclaration",
    "ClaimEvidence",
    "ClaimReadiness",
    "ClaimVerdict",
    "ConfigurationReport",
    "ClassVerdict",
    "ExemptEvidence",
    "FixtureCase",
    "HallucinatedSuccess",
    "IgnoredExemption",
    "Independence",
    "Interval",
    "IsolationSummary",
    "Leftover",
    "Metrics",
    "PassHatK",
    "Problem",
    "QualificationReport",
    "Readiness",
    "RepoInfo",
    "Report",
    "Requalification",
    "ResumedFrom",
    "RunnerInfo",
    "ShardInfo",
    "StreamStats",
    "Threat",
    "TrialIsolation",
    "FileTrace",
    "ArtifactWriter",
    "TrialOutcome",
    "TrialReport",
    "WorkspaceChangesReport",
]
