import PerchCore
import PerchPlatform

/// The control socket's requests: each is one service operation, its
/// effects executed and its result typed as the reply perchctl decodes.
extension Daemon {
    func perform(_ request: ControlRequest, from client: ClientToken) -> Result<ControlReply, ControlError> {
        let now = MonotonicClock.now()
        switch request {
        case .notify(let notify):
            return .success(.notify(PostedReply(id: executor.post(notify, from: client))))
        case .invoke(let id, let action):
            let (result, effects) = service.invoke(id, action: action, at: now)
            executor.execute(effects)
            return result.map { .invoke(InvokeReply(invoked: action)) }
        case .reply(let id, let text):
            let (result, effects) = service.reply(id, text: text, at: now)
            executor.execute(effects)
            return result.map { .reply(RepliedReply(replied: $0)) }
        case .subscribe:
            return .success(.subscribe(SubscribeReply()))
        case .dismiss(let target, let keepsHistory):
            let (result, effects) = service.dismiss(target, reason: .dismissedByUser, keepsHistory: keepsHistory,
                                                    at: now)
            executor.execute(effects)
            return result.map { .dismiss(DismissReply(dismissed: $0)) }
        case .mode(let change, let ending):
            let effects = service.setModes(change, until: ending, at: now)
            executor.execute(effects)
            // A refused end is the caller's error, not only a log line.
            for case .warning(let text) in effects where ending != nil {
                return .failure(ControlError(.invalidParams, text))
            }
            return .success(.mode(ModesReply(modes: service.modes.sorted(), ends: service.quiet.modeEnds)))
        case .snooze(let id, let ending):
            let (result, effects) = service.snooze(id, until: ending, at: now)
            executor.execute(effects)
            return result.map { .snooze(SnoozeReply(snoozed: id, until: $0)) }
        case .apps(let app, let choice):
            if let app {
                let (result, effects) = service.setAppChoice(app, choice, at: now)
                executor.execute(effects)
                if case .failure(let error) = result { return .failure(error) }
            }
            return .success(.apps(service.apps))
        case .history:
            return .success(.history(HistoryReply(service.history.entries.reversed())))
        case .restore(let id):
            let (result, effects) = service.restore(id: id, for: client, at: now)
            executor.execute(effects)
            return result.map { .restore(PostedReply(id: $0)) }
        case .status:
            return .success(.status(status(at: now)))
        case .version:
            return .success(.version(VersionReply()))
        case .reload:
            return reload().map { .reload($0) }
        case .list:
            return .success(.list(ListReply(service.live)))
        case .center(let change):
            if let change { executor.execute(service.setCenter(change, at: now)) }
            return .success(.center(CenterReply(open: service.isCenterOpen, entries: service.centerContent.count)))
        case .focus(let release):
            executor.execute(release ? service.releaseKeyboard(at: now) : service.takeKeyboard(at: now))
            return .success(.focus(FocusReply(focus: service.keyboardFocus)))
        case .action(let position):
            let (result, effects) = service.doAction(atScreenPosition: position, at: now)
            executor.execute(effects)
            return result.map { .action(ActionReply(position: position)) }
        case .context:
            let (opened, effects) = service.openMenu(at: now)
            executor.execute(effects)
            return .success(.context(ContextReply(opened: opened)))
        case .copy(let id, let what):
            let (result, effects) = service.copy(id, what)
            executor.execute(effects)
            return result.map { .copy(CopyReply(copied: $0, what: what)) }
        case .rule(let name, let enabled):
            return service.switchRule(name, on: enabled).map { .rule(RuleReply(rule: name, enabled: $0)) }
        }
    }

    /// The service's status, with the outputs as the compositor describes them.
    private func status(at now: Instant) -> StatusReply {
        let outputs = connection.outputs.values.sorted { $0.registryName < $1.registryName }.map {
            StatusReply.Output(name: $0.name, width: Int($0.modeWidth), height: Int($0.modeHeight),
                               scale: $0.realScale.factor, logicalWidth: $0.logicalSize.width,
                               logicalHeight: $0.logicalSize.height,
                               transform: StatusReply.Output.transforms[Int($0.transform & 7)])
        }
        return service.status(outputs: outputs, uptime: Int((now - started).rounded()))
    }

    /// Reads the config again and puts it in force for everything, what is
    /// on screen included. With errors, the previous config stays and the
    /// diagnostics go to the log and the reply.
    func reload() -> Result<ReloadReply, ControlError> {
        let (loaded, diagnostics) = configSource.load()
        let lines = diagnostics.map(\.description)
        guard let loaded else {
            // Each reload line goes through the log's throttle: 100 reloads
            // in a burst (a script, SIGHUP from a file watcher) say it once.
            Log.throttledError("config reload failed; the previous config stays in force:\n"
                + lines.map { "  \($0)" }.joined(separator: "\n"))
            return .failure(ControlError(.configError, "the config has errors; the previous one stays in force:\n"
                + lines.joined(separator: "\n")))
        }
        for line in lines { Log.throttledWarning(line) }
        // The scene first: the toasts the service redraws take its new width.
        let global = loaded.global
        scene.reconfigure(Self.look(global, loaded))
        scene.warmUp()
        icons.forget()
        sounds.forget()
        executor.execute(service.reload(loaded, at: MonotonicClock.now()))
        fullscreenChanged()
        configureIdleMonitor()
        shares.configure(global.whileSharing, at: MonotonicClock.now())
        hooks.timeout = global.hookTimeout
        access?.setPolicy(global.accessibility)
        executor.setNeedsRefresh()
        Log.throttledInfo("config reloaded: \(configSource.summary)")
        return .success(ReloadReply(reloaded: true, warnings: lines))
    }
}
