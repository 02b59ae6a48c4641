"""French messages (the same keys as en.py, in the words of the French scorers page)."""

MESSAGES = {
    # Step titles, in the order the check runs them.
    "step.metric_loads": "Chargement de la métrique",
    "step.metric_signature": "Signature de la métrique",
    "step.reward_spec": "Spécification de la récompense",
    "step.run_function": "Fonction run",
    "step.metric_return_value": "Valeur de retour de la métrique",
    "step.metric_time_limit": "Délai d'expiration de la métrique",
    "step.feedback_advice": "Conseils sur le retour",
    "step.not_reached": "Étape non atteinte : une étape précédente a échoué.",
    "step.case_failed": "Cas {case} : {error}",
    "step.more_cases": "({count} autre(s) cas en échec à cette étape.)",
    # How to fix a failed step.
    "hint.metric_loads": (
        "Corrigez l'erreur ci-dessus ; la métrique doit s'exécuter seule, comme metric.py."
    ),
    "hint.metric_signature": (
        "Définissez score(input, output, expected=None) (ou score(input, output)) "
        "au niveau du module de la métrique."
    ),
    "hint.reward_spec": (
        "Écrivez REWARD_SPEC comme dans le contrat : des poids pour accuracy, speed et cost, "
        "et des valeurs positives pour speed.reference (ms) et cost.reference (USD)."
    ),
    "hint.run_function": (
        "Corrigez run(artifact, input) pour qu'elle renvoie une sortie pour chaque cas."
    ),
    "hint.metric_return_value": (
        'Renvoyez une paire : (nombre, {{"feedback": "ce qui ne va pas et à quoi ressemble '
        'une sortie correcte"}}).'
    ),
    "hint.metric_time_limit": (
        "Accélérez score (ou augmentez --timeout, jusqu'à 600 s) ; un appel au modèle juge "
        "devrait avoir son propre délai d'expiration."
    ),
    # Metric return value.
    "return.not_pair": (
        "score a renvoyé {value} (de type {type}), pas une paire : renvoyez un tuple ou une "
        'liste de deux éléments, (score, {{"feedback": "..."}}).'
    ),
    "return.wrong_length": (
        "score a renvoyé {count} éléments ({value}) ; une paire contient exactement deux "
        'éléments : (score, {{"feedback": "..."}}).'
    ),
    "return.score_type": (
        "Le score {value} est de type {type}, pas un nombre : renvoyez un int ou un float "
        "(par exemple float(x))."
    ),
    "return.score_bool": (
        "Le score {value} est un bool : renvoyez un nombre comme 1.0 ou 0.0, que "
        "l'optimiseur peut chercher à augmenter."
    ),
    "return.score_nan": (
        "Le score est NaN : renvoyez un nombre fini (cherchez une division par zéro)."
    ),
    "return.score_inf": "Le score {value} est infini : renvoyez un nombre fini.",
    "return.info_not_dict": (
        "Les informations annexes {value} sont de type {type}, pas un dict : renvoyez "
        '{{"feedback": "..."}} comme second élément.'
    ),
    "return.no_feedback": (
        'Les informations annexes {value} n\'ont pas de clé "feedback" : ajoutez "feedback" '
        "avec une phrase qui dit ce qui ne va pas et à quoi ressemble une sortie correcte."
    ),
    "return.feedback_not_str": (
        'La valeur de "feedback" {value} est de type {type}, pas une chaîne : donnez '
        "une phrase (str) à l'optimiseur."
    ),
    "return.scores_not_dict": (
        'La valeur de "scores" {value} est de type {type}, pas un dict : associez des noms '
        'à des nombres, par exemple {{"format": 1.0}}.'
    ),
    "return.score_name_not_str": (
        'Une clé de "scores" vaut {value} (de type {type}) : nommez chaque score avec une chaîne.'
    ),
    "return.named_score_type": (
        'Le score nommé "{name}" vaut {value} (de type {type}), pas un nombre : donnez '
        'un nombre à chaque entrée de "scores".'
    ),
    "return.named_score_bool": (
        'Le score nommé "{name}" est un bool ({value}) : utilisez plutôt 1.0 ou 0.0.'
    ),
    "return.named_score_nan": 'Le score nommé "{name}" est NaN : donnez un nombre fini.',
    "return.named_score_inf": (
        'Le score nommé "{name}" est infini ({value}) : donnez un nombre fini.'
    ),
    # REWARD_SPEC.
    "spec.none": "Pas de REWARD_SPEC : le score est utilisé tel quel.",
    "spec.not_dict": "REWARD_SPEC est de type {type}, pas un dict.",
    "spec.unknown_key": (
        "REWARD_SPEC a une clé inconnue {key} : les clés sont weights, accuracy, speed et cost "
        "(vouliez-vous dire {hint!r} ?)."
    ),
    "spec.weights_missing": (
        'REWARD_SPEC["weights"] vaut {value} : donnez un dict avec les poids accuracy, '
        "speed et cost."
    ),
    "spec.weight_missing": (
        'REWARD_SPEC["weights"] n\'a pas de poids "{part}" : ajoutez-en un (0 ou plus).'
    ),
    "spec.unknown_weight": (
        'REWARD_SPEC["weights"] a une clé inconnue {key} : les poids sont accuracy, speed et cost.'
    ),
    "spec.weights_all_zero": (
        "Tous les poids de REWARD_SPEC valent 0 : donnez à au moins l'un d'eux une valeur "
        "supérieure à 0."
    ),
    "spec.not_number": "REWARD_SPEC {where} vaut {value}, pas un nombre.",
    "spec.negative_weight": "REWARD_SPEC {where} vaut {value} : un poids doit valoir 0 ou plus.",
    "spec.reference_not_positive": (
        "REWARD_SPEC {where} vaut {value} : une référence doit être supérieure à 0."
    ),
    "spec.section_missing": (
        'REWARD_SPEC n\'a pas de section "{part}" : ajoutez {{"reference": ...}} pour {part}.'
    ),
    "spec.section_not_dict": 'REWARD_SPEC["{part}"] vaut {value}, pas un dict.',
    "spec.unknown_option": (
        'REWARD_SPEC["{part}"] a une clé inconnue {key} : la seule option est "reference".'
    ),
    "spec.reference_missing": (
        'REWARD_SPEC["{part}"] n\'a pas de "reference" : speed.reference est en millisecondes, '
        "cost.reference en dollars américains ; les deux doivent être positifs."
    ),
    # Signature and loading.
    "signature.missing": "La métrique ne définit aucune fonction nommée score.",
    "signature.not_callable": "score vaut {value}, pas une fonction.",
    "signature.wrong": (
        "{found} ne peut être appelée ni comme score(input, output, expected) ni comme "
        "score(input, output)."
    ),
    "loads.no_file": "Aucun fichier de métrique à {path}.",
    "loads.name_error": (
        "La métrique utilise le nom {name!r}, qu'elle ne définit pas. La métrique s'exécute "
        "comme un module à part, exactement comme metric.py : définissez ou importez {name!r} "
        "dans la métrique elle-même."
    ),
    "loads.syntax": "La métrique contient une erreur de syntaxe à la ligne {line} : {error}.",
    "loads.raised": "La métrique a échoué au chargement : {error}.",
    # One case.
    "run.not_used": "Pas de fonction run : les sorties viennent de la colonne {column!r}.",
    "case.run_raised": "run(artifact, input) a levé {error}",
    "case.run_timeout": "run(artifact, input) a pris plus de {seconds} s et a été interrompue.",
    "case.metric_timeout": "score a dépassé le délai d'expiration de la métrique ({seconds} s).",
    "case.metric_raised": "score a levé {error}",
    "case.name_error": (
        "score utilise le nom {name!r}, que la métrique ne définit pas. La métrique s'exécute "
        "comme un module à part, exactement comme metric.py : définissez ou importez {name!r} "
        "dans la métrique elle-même."
    ),
    "case.exited": "score a appelé sys.exit({code}) ; renvoyez plutôt une paire.",
    "case.recursion": "score a fait une récursion sans fin (RecursionError).",
    # Feedback advice (advice.py): never fails the check.
    "advice.empty": (
        "Retour vide {cases} : l'optimiseur n'en apprend rien. Dites ce qui ne va pas et à "
        "quoi ressemble une sortie correcte, par exemple : {example}"
    ),
    "advice.generic": (
        "Retour générique {feedback} {cases} : il ne dit ni ce qui ne va pas ni à quoi "
        "ressemble une sortie correcte. Écrivez par exemple : {example}"
    ),
    "advice.same_feedback": (
        "Le même retour {feedback} {cases}, dont les scores sont {scores} : l'optimiseur ne "
        "peut pas savoir ce qui fait la différence. Dites ce que chaque sortie a de juste et "
        "ce qui lui manque."
    ),
    "advice.constant_score": (
        "Les {count} cas ont tous le score {score}. Un score qui ne varie jamais ne donne à "
        "l'optimiseur rien à augmenter : vérifiez plus de cas (--cases N) et, si le score ne "
        "bouge toujours pas, faites en sorte que la métrique distingue les sorties "
        "(comparez-les à la valeur attendue, accordez des points partiels)."
    ),
    "advice.constant_accuracy": (
        "Les {count} cas ont tous la précision {score}. Une précision qui ne varie jamais ne "
        "donne à l'optimiseur rien à augmenter : vérifiez plus de cas (--cases N) et, si elle "
        "ne bouge toujours pas, faites en sorte que la métrique distingue les sorties "
        "(comparez-les à la valeur attendue, accordez des points partiels)."
    ),
    "advice.no_target": (
        "Le retour {cases} accompagne un score bas sans dire à quoi ressemble une sortie "
        "correcte : nommez la valeur attendue ou la correction, par exemple : {example}"
    ),
    "advice.hint": (
        "L'optimiseur (GEPA, DSPy GEPA, Auto) ne lit que le texte de retour, jamais le source "
        "de la métrique : dites ce qui ne va pas, à quoi ressemble une sortie correcte, et "
        "pourquoi."
    ),
    "advice.case": "pour le cas {ids}",
    "advice.cases": "pour les cas {ids}",
    "advice.more": "(+{count} autres)",
    "advice.example": "« Attendu {expected}, obtenu {output}. <pourquoi> »",
    "advice.example_no_expected": (
        "« <ce qui ne va pas>. Une sortie correcte <ce qu'il lui faut>. »"
    ),
    # Reports.
    "report.check_passed": "Vérification du contrat réussie",
    "report.check_failed": "Échec de la vérification du contrat",
    "report.eval_passed": "Évaluation terminée",
    "report.eval_failed": "Évaluation terminée avec des échecs",
    "report.interrupted": "Interruption : voici les {done} cas terminés sur {total}.",
    "report.metric": "métrique {name!r}",
    "report.cases": "{count} cas",
    "report.mean": "score moyen",
    "report.more_cases": "… et {count} autre(s) cas : report.to_frame() les contient tous.",
    "report.worst": "Pires cas en premier",
    "report.fix": "Comment corriger",
    "report.advice": "Conseils",
    "col.case": "cas",
    "col.input": "entrée",
    "col.output": "sortie",
    "col.expected": "attendu",
    "col.score": "score",
    "col.scores": "scores nommés",
    "col.feedback": "retour (ce que lit l'optimiseur)",
    "col.metric_ms": "métrique",
    "col.run_ms": "run",
    "col.cost": "coût",
    "col.judge_cost": "coût du juge",
    "col.result": "résultat",
    "status.passed": "réussi",
    "status.failed": "échoué",
    "status.skipped": "ignoré",
    "status.advice": "conseil",
    "value.not_measured": "non mesuré",
    "value.cached": "en cache",
    "failed_at": "échec à {step}",
    # Live views (widgets/).
    "view.running_check": "Vérification du contrat en cours…",
    "view.running_eval": "Évaluation en cours…",
    "view.waiting": "Démarrage…",
    "view.progress": "{done} cas sur {total}",
    "view.failed_count": "{count} en échec",
    "view.pending": "en attente",
    "view.col_measures": "temps et coût",
    "view.empty_feedback": "(retour vide : l'optimiseur n'apprend rien de ce cas)",
    "view.traceback": "Trace d'appels (votre code)",
    "view.more_chars": "… ({count} caractères de plus)",
    "view.showing": "{shown} cas affichés sur {total}.",
    "view.no_cases": "Aucun cas ne correspond.",
    "view.filter": "Afficher",
    "view.filter_all": "tous les cas ({count})",
    "view.filter_failed": "en échec ({count})",
    "view.filter_step": "en échec à {step} ({count})",
    "view.filter_passed": "réussis ({count})",
    "view.reward_title": "Décomposition de la récompense",
    "view.reward_help": (
        "Chaque barre est la récompense d'un cas : poids × composante pour la précision, la "
        "vitesse et le coût, empilés. Les composantes viennent de la vérification ; rien "
        "n'est relancé."
    ),
    "view.mean_reward": "récompense moyenne",
    "view.over_cases": "{count} cas",
    "view.no_reward": "pas de récompense",
    "view.lowest": "Récompenses les plus basses avec ces poids :",
    "view.try_weights": "Essayez d'autres poids (remis à l'échelle pour totaliser 1) :",
    "view.write_weights": "Poids à écrire dans REWARD_SPEC",
    "view.weights_same": "comme dans votre métrique",
    "view.reset": "Rétablir",
    "view.named_title": "Scores nommés",
    "view.mean": "moyenne",
    "part.accuracy": "précision",
    "part.speed": "vitesse",
    "part.cost": "coût",
    # Magics (%%skynet_metric, %skynet_metric, %skynet_check, %skynet_eval).
    "magic.registered": "Métrique {name!r} enregistrée : {call}.",
    "magic.spec_weights": (
        "Poids de REWARD_SPEC (ramenés à une somme de 1) : accuracy {accuracy}, "
        "speed {speed}, cost {cost}."
    ),
    "magic.spec_references": "Références : speed {speed} ms, cost {cost} USD.",
    "magic.spec_accuracy_reference": (
        "accuracy est une erreur (plus bas vaut mieux), de référence {reference}."
    ),
    "magic.list_none": (
        "Aucune métrique enregistrée : exécutez une cellule %%skynet_metric, "
        "ou %skynet_metric --load metric.py."
    ),
    "magic.col_name": "nom",
    "magic.col_call": "forme d'appel",
    "magic.col_spec": "REWARD_SPEC",
    "magic.col_source": "fichier source",
    "magic.yes": "oui",
    "magic.no": "non",
    "magic.source_cell": "(cellule du notebook)",
    "magic.no_metric": (
        "Aucune métrique enregistrée : exécutez d'abord une cellule %%skynet_metric, "
        "ou %skynet_metric --load metric.py."
    ),
    "magic.unknown_metric": (
        "Aucune métrique nommée {name!r} ; les métriques enregistrées sont : {known}. "
        "Choisissez-en une avec --metric NOM."
    ),
    "magic.not_found": "{option} {text} : aucune variable du notebook ni aucun fichier de ce nom.",
    "magic.eval_failed": (
        "{option} {text} : aucun fichier de ce nom, et évalué comme expression dans le "
        "notebook, cela a levé {error}"
    ),
    "magic.not_function": "--run {text} est de type {type}, pas une fonction run(artifact, input).",
    "magic.not_executor": (
        "--executor {text} est de type {type}, pas un concurrent.futures.Executor "
        "(pour Dask : client.get_executor())."
    ),
    "magic.no_outputs": (
        "Indiquez d'où viennent les sorties : --run FONCTION (avec --artifact EXPR), "
        "ou --output-column COLONNE."
    ),
    "magic.both_outputs": "Donnez --run ou --output-column, pas les deux.",
    "magic.save_needs_cell": (
        "--save et --force vont avec la magic de cellule : mettez %%skynet_metric sur la "
        "première ligne de la cellule de la métrique."
    ),
    "magic.force_needs_save": "--force va avec --save CHEMIN : il autorise à écraser CHEMIN.",
    "magic.load_in_cell": (
        "--load enregistre un fichier : utilisez la magic de ligne "
        "%skynet_metric --load CHEMIN [NOM], pas la magic de cellule."
    ),
    "magic.run_file_failed": "Le fichier run {path} a échoué au chargement : {error}",
    "magic.saved": "Enregistrée dans {path}.",
    "magic.save_unchanged": "{path} contient déjà cette métrique : rien n'a été écrit.",
    "magic.save_refused": (
        "Non enregistrée : {path} existe avec un autre contenu et n'a pas été modifié. "
        "Ajoutez --force pour l'écraser."
    ),
    "magic.save_failed": "Impossible d'enregistrer dans {path} : {error}",
    "magic.rechecked": (
        "La dernière vérification de {name!r} a été relancée sur les sorties en cache : "
        "{outcome} Sa sortie est mise à jour sur place."
    ),
    "magic.recheck_failed": "Impossible de relancer la dernière vérification de {name!r} : {error}",
    "magic.run_not_repeated": (
        "une métrique modifiée est revérifiée uniquement sur les sorties en cache, et ce cas "
        "n'en a pas (son dernier run a échoué). Lancez %skynet_check pour rappeler run."
    ),
}
