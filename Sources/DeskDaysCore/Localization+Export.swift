// Every module that speaks to a person imports DeskDaysCore, and so gets
// `tr`/`trn` (module Localization) with it.
@_exported import Localization
