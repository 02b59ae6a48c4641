"""Portuguese messages (the same keys as en.py, in the words of the Portuguese scorers page)."""

MESSAGES = {
    # Step titles, in the order the check runs them.
    "step.metric_loads": "Carregamento da métrica",
    "step.metric_signature": "Assinatura da métrica",
    "step.reward_spec": "Especificação da recompensa",
    "step.run_function": "Função run",
    "step.metric_return_value": "Valor devolvido pela métrica",
    "step.metric_time_limit": "Tempo limite da métrica",
    "step.feedback_advice": "Conselhos sobre o feedback",
    "step.not_reached": "Etapa não alcançada: uma etapa anterior falhou.",
    "step.case_failed": "Caso {case}: {error}",
    "step.more_cases": "(Mais {count} caso(s) com falha nesta etapa.)",
    # How to fix a failed step.
    "hint.metric_loads": (
        "Corrija o erro acima; a métrica deve ser executada sozinha, como metric.py."
    ),
    "hint.metric_signature": (
        "Defina score(input, output, expected=None) (ou score(input, output)) "
        "no nível do módulo da métrica."
    ),
    "hint.reward_spec": (
        "Escreva REWARD_SPEC como no contrato: pesos para accuracy, speed e cost, "
        "e valores positivos para speed.reference (ms) e cost.reference (USD)."
    ),
    "hint.run_function": "Corrija run(artifact, input) para que devolva uma saída para cada caso.",
    "hint.metric_return_value": (
        'Devolva um par: (número, {{"feedback": "o que está errado e como é uma saída correta"}}).'
    ),
    "hint.metric_time_limit": (
        "Torne score mais rápida (ou aumente --timeout, até 600 s); uma chamada ao modelo juiz "
        "deve ter o seu próprio tempo limite."
    ),
    # Metric return value.
    "return.not_pair": (
        "score devolveu {value} (do tipo {type}), não um par: devolva uma tupla ou uma lista "
        'de dois itens, (score, {{"feedback": "..."}}).'
    ),
    "return.wrong_length": (
        "score devolveu {count} itens ({value}); um par tem exatamente dois itens: "
        '(score, {{"feedback": "..."}}).'
    ),
    "return.score_type": (
        "A pontuação {value} é do tipo {type}, não um número: devolva um int ou um float "
        "(por exemplo, float(x))."
    ),
    "return.score_bool": (
        "A pontuação {value} é um bool: devolva um número como 1.0 ou 0.0, que o "
        "otimizador possa tentar aumentar."
    ),
    "return.score_nan": (
        "A pontuação é NaN: devolva um número finito (verifique se há uma divisão por zero)."
    ),
    "return.score_inf": "A pontuação {value} é infinita: devolva um número finito.",
    "return.info_not_dict": (
        "As informações adicionais {value} são do tipo {type}, não um dict: devolva "
        '{{"feedback": "..."}} como segundo item.'
    ),
    "return.no_feedback": (
        'As informações adicionais {value} não têm a chave "feedback": adicione "feedback" '
        "com uma frase que diga o que está errado e como é uma saída correta."
    ),
    "return.feedback_not_str": (
        'O valor de "feedback" {value} é do tipo {type}, não uma string: dê ao otimizador '
        "uma frase (str)."
    ),
    "return.scores_not_dict": (
        'O valor de "scores" {value} é do tipo {type}, não um dict: mapeie nomes para '
        'números, por exemplo {{"format": 1.0}}.'
    ),
    "return.score_name_not_str": (
        'Uma chave de "scores" é {value} (do tipo {type}): dê a cada pontuação um nome '
        "do tipo string."
    ),
    "return.named_score_type": (
        'A pontuação nomeada "{name}" é {value} (do tipo {type}), não um número: dê um '
        'número a cada entrada de "scores".'
    ),
    "return.named_score_bool": (
        'A pontuação nomeada "{name}" é um bool ({value}): use 1.0 ou 0.0 em vez disso.'
    ),
    "return.named_score_nan": 'A pontuação nomeada "{name}" é NaN: dê um número finito.',
    "return.named_score_inf": (
        'A pontuação nomeada "{name}" é infinita ({value}): dê um número finito.'
    ),
    # REWARD_SPEC.
    "spec.none": "Sem REWARD_SPEC: a pontuação é usada tal como está.",
    "spec.not_dict": "REWARD_SPEC é do tipo {type}, não um dict.",
    "spec.unknown_key": (
        "REWARD_SPEC tem uma chave desconhecida {key}: as chaves são weights, accuracy, speed "
        "e cost (queria dizer {hint!r}?)."
    ),
    "spec.weights_missing": (
        'REWARD_SPEC["weights"] é {value}: dê um dict com os pesos de accuracy, speed e cost.'
    ),
    "spec.weight_missing": (
        'REWARD_SPEC["weights"] não tem o peso "{part}": adicione um (0 ou mais).'
    ),
    "spec.unknown_weight": (
        'REWARD_SPEC["weights"] tem uma chave desconhecida {key}: os pesos são accuracy, '
        "speed e cost."
    ),
    "spec.weights_all_zero": (
        "Todos os pesos de REWARD_SPEC são 0: dê a pelo menos um deles um valor maior que 0."
    ),
    "spec.not_number": "REWARD_SPEC {where} é {value}, não um número.",
    "spec.negative_weight": "REWARD_SPEC {where} é {value}: um peso deve ser 0 ou mais.",
    "spec.reference_not_positive": (
        "REWARD_SPEC {where} é {value}: uma referência deve ser maior que 0."
    ),
    "spec.section_missing": (
        'REWARD_SPEC não tem a parte "{part}": adicione {{"reference": ...}} para {part}.'
    ),
    "spec.section_not_dict": 'REWARD_SPEC["{part}"] é {value}, não um dict.',
    "spec.unknown_option": (
        'REWARD_SPEC["{part}"] tem uma chave desconhecida {key}: a única opção é "reference".'
    ),
    "spec.reference_missing": (
        'REWARD_SPEC["{part}"] não tem "reference": speed.reference é em milissegundos, '
        "cost.reference em dólares americanos; os dois devem ser positivos."
    ),
    # Signature and loading.
    "signature.missing": "A métrica não define nenhuma função chamada score.",
    "signature.not_callable": "score é {value}, não uma função.",
    "signature.wrong": (
        "{found} não pode ser chamada como score(input, output, expected) nem como "
        "score(input, output)."
    ),
    "loads.no_file": "Nenhuma métrica encontrada em {path}.",
    "loads.name_error": (
        "A métrica usa o nome {name!r}, que não define. A métrica é executada como um módulo "
        "próprio, exatamente como metric.py: defina ou importe {name!r} na própria métrica."
    ),
    "loads.syntax": "A métrica tem um erro de sintaxe na linha {line}: {error}.",
    "loads.raised": "A métrica falhou ao carregar: {error}.",
    # One case.
    "run.not_used": "Sem função run: as saídas vêm da coluna {column!r}.",
    "case.run_raised": "run(artifact, input) lançou {error}",
    "case.run_timeout": "run(artifact, input) demorou mais de {seconds} s e foi interrompida.",
    "case.metric_timeout": "score ultrapassou o tempo limite da métrica ({seconds} s).",
    "case.metric_raised": "score lançou {error}",
    "case.name_error": (
        "score usa o nome {name!r}, que a métrica não define. A métrica é executada como um "
        "módulo próprio, exatamente como metric.py: defina ou importe {name!r} na própria "
        "métrica."
    ),
    "case.exited": "score chamou sys.exit({code}); devolva um par em vez disso.",
    "case.recursion": "score entrou numa recursão sem fim (RecursionError).",
    # Feedback advice (advice.py): never fails the check.
    "advice.empty": (
        "Feedback vazio {cases}: o otimizador não aprende nada com ele. Diga o que está errado "
        "e como é uma saída correta, por exemplo: {example}"
    ),
    "advice.generic": (
        "Feedback genérico {feedback} {cases}: não diz o que está errado nem como é uma saída "
        "correta. Escreva, por exemplo: {example}"
    ),
    "advice.same_feedback": (
        "O mesmo feedback {feedback} {cases}, com pontuações {scores}: o otimizador não "
        "consegue saber o que fez a diferença. Diga o que cada saída acertou e o que faltou."
    ),
    "advice.constant_score": (
        "Os {count} casos têm todos a pontuação {score}. Uma pontuação que nunca varia não dá "
        "ao otimizador nada para aumentar: verifique mais casos (--cases N) e, se ela continuar "
        "igual, faça a métrica distinguir as saídas (compare-as com o valor esperado, dê "
        "pontos parciais)."
    ),
    "advice.constant_accuracy": (
        "Os {count} casos têm todos a precisão {score}. Uma precisão que nunca varia não dá "
        "ao otimizador nada para aumentar: verifique mais casos (--cases N) e, se ela continuar "
        "igual, faça a métrica distinguir as saídas (compare-as com o valor esperado, dê "
        "pontos parciais)."
    ),
    "advice.no_target": (
        "O feedback {cases} acompanha uma pontuação baixa sem dizer como é uma saída correta: "
        "indique o valor esperado ou a correção, por exemplo: {example}"
    ),
    "advice.hint": (
        "O otimizador (GEPA, DSPy GEPA, Auto) lê apenas o texto de feedback, nunca o código da "
        "métrica: diga o que está errado, como é uma saída correta e porquê."
    ),
    "advice.case": "no caso {ids}",
    "advice.cases": "nos casos {ids}",
    "advice.more": "(+{count} outros)",
    "advice.example": '"Esperado {expected}, obtido {output}. <porquê>"',
    "advice.example_no_expected": '"<o que está errado>. Uma saída correta <o que precisa>."',
    # Reports.
    "report.check_passed": "Verificação do contrato aprovada",
    "report.check_failed": "Verificação do contrato falhou",
    "report.eval_passed": "Avaliação concluída",
    "report.eval_failed": "Avaliação concluída com falhas",
    "report.interrupted": "Interrupção: são mostrados os {done} de {total} casos concluídos.",
    "report.metric": "métrica {name!r}",
    "report.cases": "{count} caso(s)",
    "report.mean": "pontuação média",
    "report.more_cases": "… e mais {count} caso(s): report.to_frame() tem todos.",
    "report.worst": "Piores casos primeiro",
    "report.fix": "Como corrigir",
    "report.advice": "Conselhos",
    "col.case": "caso",
    "col.input": "entrada",
    "col.output": "saída",
    "col.expected": "esperado",
    "col.score": "pontuação",
    "col.scores": "pontuações nomeadas",
    "col.feedback": "feedback (o que o otimizador lê)",
    "col.metric_ms": "métrica",
    "col.run_ms": "run",
    "col.cost": "custo",
    "col.judge_cost": "custo do juiz",
    "col.result": "resultado",
    "status.passed": "aprovado",
    "status.failed": "com falha",
    "status.skipped": "ignorado",
    "status.advice": "conselho",
    "value.not_measured": "não medido",
    "value.cached": "em cache",
    "failed_at": "falhou em {step}",
    # Live views (widgets/).
    "view.running_check": "Verificação do contrato em andamento…",
    "view.running_eval": "Avaliação em andamento…",
    "view.waiting": "A iniciar…",
    "view.progress": "{done} de {total} casos",
    "view.failed_count": "{count} com falha",
    "view.pending": "pendente",
    "view.col_measures": "tempo e custo",
    "view.empty_feedback": "(feedback vazio: o otimizador não aprende nada com este caso)",
    "view.traceback": "Traceback (o seu código)",
    "view.more_chars": "… (mais {count} caracteres)",
    "view.showing": "A mostrar {shown} de {total} casos.",
    "view.no_cases": "Nenhum caso corresponde.",
    "view.filter": "Mostrar",
    "view.filter_all": "todos os casos ({count})",
    "view.filter_failed": "com falha ({count})",
    "view.filter_step": "com falha em {step} ({count})",
    "view.filter_passed": "aprovados ({count})",
    "view.reward_title": "Decomposição da recompensa",
    "view.reward_help": (
        "Cada barra é a recompensa de um caso: peso × componente para precisão, velocidade e "
        "custo, empilhados. Os componentes vêm da verificação; nada é executado de novo."
    ),
    "view.mean_reward": "recompensa média",
    "view.over_cases": "{count} caso(s)",
    "view.no_reward": "sem recompensa",
    "view.lowest": "Recompensas mais baixas com estes pesos:",
    "view.try_weights": "Experimente outros pesos (reescalados para somar 1):",
    "view.write_weights": "Pesos a escrever em REWARD_SPEC",
    "view.weights_same": "como na sua métrica",
    "view.reset": "Repor",
    "view.named_title": "Pontuações nomeadas",
    "view.mean": "média",
    "part.accuracy": "precisão",
    "part.speed": "velocidade",
    "part.cost": "custo",
    # Magics (%%skynet_metric, %skynet_metric, %skynet_check, %skynet_eval).
    "magic.registered": "Métrica {name!r} registada: {call}.",
    "magic.spec_weights": (
        "Pesos de REWARD_SPEC (reescalados para somar 1): accuracy {accuracy}, "
        "speed {speed}, cost {cost}."
    ),
    "magic.spec_references": "Referências: speed {speed} ms, cost {cost} USD.",
    "magic.spec_accuracy_reference": (
        "accuracy é um erro (quanto menor, melhor), com referência {reference}."
    ),
    "magic.list_none": (
        "Ainda não há métricas registadas: execute uma célula %%skynet_metric, "
        "ou %skynet_metric --load metric.py."
    ),
    "magic.col_name": "nome",
    "magic.col_call": "forma de chamada",
    "magic.col_spec": "REWARD_SPEC",
    "magic.col_source": "ficheiro de origem",
    "magic.yes": "sim",
    "magic.no": "não",
    "magic.source_cell": "(célula do notebook)",
    "magic.no_metric": (
        "Ainda não há métricas registadas: execute primeiro uma célula %%skynet_metric, "
        "ou %skynet_metric --load metric.py."
    ),
    "magic.unknown_metric": (
        "Não há nenhuma métrica chamada {name!r}; as métricas registadas são: {known}. "
        "Escolha uma com --metric NOME."
    ),
    "magic.not_found": "{option} {text}: não há variável do notebook nem ficheiro com esse nome.",
    "magic.eval_failed": (
        "{option} {text}: não há ficheiro com esse nome e, avaliado como expressão no "
        "notebook, lançou {error}"
    ),
    "magic.not_function": "--run {text} é do tipo {type}, não uma função run(artifact, input).",
    "magic.not_executor": (
        "--executor {text} é do tipo {type}, não um concurrent.futures.Executor "
        "(com Dask: client.get_executor())."
    ),
    "magic.no_outputs": (
        "Indique de onde vêm as saídas: --run FUNÇÃO (com --artifact EXPR), "
        "ou --output-column COLUNA."
    ),
    "magic.both_outputs": "Indique --run ou --output-column, não os dois.",
    "magic.save_needs_cell": (
        "--save e --force são da magic de célula: ponha %%skynet_metric na primeira linha "
        "da célula da métrica."
    ),
    "magic.force_needs_save": "--force acompanha --save CAMINHO: permite substituir CAMINHO.",
    "magic.load_in_cell": (
        "--load regista um ficheiro: use a magic de linha %skynet_metric --load CAMINHO [NOME], "
        "não a magic de célula."
    ),
    "magic.run_file_failed": "O ficheiro run {path} falhou ao carregar: {error}",
    "magic.saved": "Guardada em {path}.",
    "magic.save_unchanged": "{path} já contém esta métrica: nada foi escrito.",
    "magic.save_refused": (
        "Não guardada: {path} existe com outro conteúdo e ficou intacto. "
        "Acrescente --force para o substituir."
    ),
    "magic.save_failed": "Não foi possível guardar em {path}: {error}",
    "magic.rechecked": (
        "A última verificação de {name!r} foi repetida com as saídas em cache: {outcome} "
        "A sua saída foi atualizada no mesmo lugar."
    ),
    "magic.recheck_failed": "Não foi possível repetir a última verificação de {name!r}: {error}",
    "magic.run_not_repeated": (
        "uma métrica editada é verificada de novo apenas com as saídas em cache, e este caso "
        "não tem nenhuma (a sua última execução falhou). Execute %skynet_check para chamar "
        "run de novo."
    ),
}
