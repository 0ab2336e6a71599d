package views

import "github.com/eoslab/eoslab/views/model"

// The view-model's types and constants live in views/model, which every
// component imports. These aliases keep the names views/adapt, the CLI,
// eoslab serve, export and the demo used before the move compiling
// unchanged; new code says model.X.

type (
	Actor           = model.Actor
	Arrow           = model.Arrow
	ArrowState      = model.ArrowState
	BranchInfo      = model.BranchInfo
	CachedBatch     = model.CachedBatch
	Checkpoint      = model.Checkpoint
	ClientCall      = model.ClientCall
	ConsumedRecord  = model.ConsumedRecord
	ConsumerView    = model.ConsumerView
	CoordinatorView = model.CoordinatorView
	CostRow         = model.CostRow
	CostView        = model.CostView
	Drill           = model.Drill
	DrillQuestion   = model.DrillQuestion
	DrillResult     = model.DrillResult
	EventLine       = model.EventLine
	Frame           = model.Frame
	GroupView       = model.GroupView
	KafkaSwitcher   = model.KafkaSwitcher
	LessonInfo      = model.LessonInfo
	LogEvent        = model.LogEvent
	LogRow          = model.LogRow
	Monitor         = model.Monitor
	Op              = model.Op
	OpKind          = model.OpKind
	PartitionOffset = model.PartitionOffset
	PartitionSeq    = model.PartitionSeq
	PartitionView   = model.PartitionView
	PendingOffset   = model.PendingOffset
	Place           = model.Place
	ProducerEntry   = model.ProducerEntry
	ProducerView    = model.ProducerView
	Progress        = model.Progress
	Revisit         = model.Revisit
	RowStatus       = model.RowStatus
	Safeguard       = model.Safeguard
	SafeguardID     = model.SafeguardID
	SandboxClient   = model.SandboxClient
	SandboxPreset   = model.SandboxPreset
	SandboxSession  = model.SandboxSession
	Session         = model.Session
	Subject         = model.Subject
	SubjectKind     = model.SubjectKind
	Switched        = model.Switched
	Tone            = model.Tone
	Violation       = model.Violation
	WaitItem        = model.WaitItem
)

const (
	ArrowDelivered   = model.ArrowDelivered
	ArrowDropped     = model.ArrowDropped
	ArrowInFlight    = model.ArrowInFlight
	ArrowLost        = model.ArrowLost
	CallAbort        = model.CallAbort
	CallBegin        = model.CallBegin
	CallCommit       = model.CallCommit
	CallInit         = model.CallInit
	CallPoll         = model.CallPoll
	CallProcess      = model.CallProcess
	CallSend         = model.CallSend
	CallSendOffsets  = model.CallSendOffsets
	ClientConsumer   = model.ClientConsumer
	ClientProcessor  = model.ClientProcessor
	ClientProducer   = model.ClientProducer
	GuardDedup       = model.GuardDedup
	GuardFencing     = model.GuardFencing
	GuardIdempotence = model.GuardIdempotence
	GuardIsolation   = model.GuardIsolation
	GuardLSO         = model.GuardLSO
	GuardOffsets     = model.GuardOffsets
	NumGuards        = model.NumGuards
	OpAdvance        = model.OpAdvance
	OpCall           = model.OpCall
	OpCrash          = model.OpCrash
	OpDelay          = model.OpDelay
	OpDeliver        = model.OpDeliver
	OpDrop           = model.OpDrop
	OpDuplicate      = model.OpDuplicate
	OpPause          = model.OpPause
	OpReorder        = model.OpReorder
	OpRestart        = model.OpRestart
	OpResume         = model.OpResume
	OpRun            = model.OpRun
	OpStep           = model.OpStep
	RowAbort         = model.RowAbort
	RowCommit        = model.RowCommit
	RowData          = model.RowData
	StatusAborted    = model.StatusAborted
	StatusCommitted  = model.StatusCommitted
	StatusOpen       = model.StatusOpen
	StatusPlain      = model.StatusPlain
	SubjectConsumer  = model.SubjectConsumer
	SubjectPartition = model.SubjectPartition
	SubjectProducer  = model.SubjectProducer
	SubjectTxnLog    = model.SubjectTxnLog
	ToneAborted      = model.ToneAborted
	ToneCommitted    = model.ToneCommitted
	ToneEnding       = model.ToneEnding
	ToneFenced       = model.ToneFenced
	ToneIdle         = model.ToneIdle
	ToneOpen         = model.ToneOpen
	TonePlain        = model.TonePlain
)
